from primer.figures import memory as figs
from primer.figures import to_html
from primer.memory import SHAPES, format_bytes, shape_bytes

shapes = [SHAPES[name] for name in ("Llama-2-7B", "Llama-2-13B", "Llama-2-70B", "Mistral-7B", "GPT-2")]
lengths = [256, 512, 1024, 2048, 4096, 8192, 16384, 32768]        # the slider
curve_x = list(range(0, 32768 + 1, 256))                          # the dashed curve of each model
curves = [[shape_bytes(s, n) for n in curve_x] for s in shapes]   # fp16, batch 1
filled = [[shape_bytes(s, n) for n in lengths] for s in shapes]
models = [(s.name, s.max_context, s.window) for s in shapes]
fig = figs.fill_chart(models, lengths, curve_x, curves, filled, format_bytes, active_length=lengths.index(4096))
print(to_html(fig, div_id="fig-fill-chart"))

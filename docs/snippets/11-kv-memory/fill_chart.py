from primer.counts import format_bytes, kv_cache_bytes
from primer.figures import kv_memory as figures
from primer.figures import to_html
from primer.inputs.kv_memory import CACHE_MODELS, SLIDER_LENGTHS
from primer.published import model

configs = [model(name).config for name in CACHE_MODELS]
lengths = list(SLIDER_LENGTHS)  # the slider
curve_x = list(range(0, 32768 + 1, 256))  # the dashed curve of each model
curves = [[kv_cache_bytes(c, n) for n in curve_x] for c in configs]  # fp16, batch 1
filled = [[kv_cache_bytes(c, n) for n in lengths] for c in configs]
models = [(name, c.max_len, c.window) for name, c in zip(CACHE_MODELS, configs)]
fig = figures.fill_chart(models, lengths, curve_x, curves, filled, format_bytes, active_length=lengths.index(4096))
print(to_html(fig, div_id="fig-fill-chart"))

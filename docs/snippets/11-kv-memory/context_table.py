from primer.figures import memory as figs
from primer.memory import SHAPES, format_bytes, shape_bytes

llama = SHAPES["Llama-2-7B"]
rows = [(n, shape_bytes(llama, n_tokens=n)) for n in (1, 512, 1024, 2048, 4096)]   # grows linearly with the context
print(figs.context_table(rows, format_bytes, bold=llama.max_context))

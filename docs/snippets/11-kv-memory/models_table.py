from primer.figures import memory as figs
from primer.memory import SHAPES, format_bytes, shape_bytes

rows = [(s, shape_bytes(s, 1), shape_bytes(s, s.max_context)) for s in SHAPES.values()]  # fp16, batch 1
print(figs.models_table(rows, format_bytes))

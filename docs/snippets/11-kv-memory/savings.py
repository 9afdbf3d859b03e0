from dataclasses import replace

from primer.figures import memory as figs
from primer.memory import SHAPES, format_bytes, shape_bytes

llama70, mistral = SHAPES["Llama-2-70B"], SHAPES["Mistral-7B"]
rows = []
for shape, n in ((llama70, 4096), (mistral, 8192)):     # grouped-query attention: fewer KV heads, same query heads
    one_kv_per_query = replace(shape, n_kv_heads=shape.n_heads)
    rows.append(("gqa", dict(m=shape.name, n=f"{n:,}", a=shape.n_heads, b=shape.n_kv_heads),
                 shape_bytes(one_kv_per_query, n, window=None), shape_bytes(shape, n, window=None)))
for n in (8192, 32768):                                  # a sliding window keeps only the last `window` tokens
    rows.append(("swa", dict(m=mistral.name, n=f"{n:,}", w=f"{mistral.window:,}"),
                 shape_bytes(mistral, n, window=None), shape_bytes(mistral, n)))
print(figs.savings_table(rows, format_bytes))

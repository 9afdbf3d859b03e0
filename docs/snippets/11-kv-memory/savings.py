from dataclasses import replace

from primer.counts import format_bytes, kv_cache_bytes
from primer.figures import kv_memory as figures
from primer.models import model

rows = []
for name, n in (("Llama-2-70B", 4096), ("Mistral-7B", 8192)):   # grouped-query attention: fewer KV heads, same query heads
    c = replace(model(name).config, window=None)
    one_kv_per_query = replace(c, n_kv_heads=c.n_heads)
    rows.append(("gqa", dict(m=name, n=f"{n:,}", a=c.n_heads, b=c.n_kv_heads),
                 kv_cache_bytes(one_kv_per_query, n), kv_cache_bytes(c, n)))
mistral = model("Mistral-7B").config
for n in (8192, 32768):                                  # a sliding window keeps only the last `window` tokens
    rows.append(("swa", dict(m="Mistral-7B", n=f"{n:,}", w=f"{mistral.window:,}"),
                 kv_cache_bytes(replace(mistral, window=None), n), kv_cache_bytes(mistral, n)))
print(figures.savings_table(rows, format_bytes))

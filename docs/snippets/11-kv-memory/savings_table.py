from dataclasses import replace

from primer.counts import format_bytes, kv_cache_bytes
from primer.figures import kv_memory as figures
from primer.published import model

rows = []
for name, n in (
    ("Llama-2-70B", 4096),
    ("Mistral-7B", 8192),
):  # grouped-query attention: fewer KV heads, same query heads
    c = replace(model(name).config, window=None)
    one_kv_per_query = replace(c, n_kv_heads=c.n_heads)
    rows.append(
        (
            "gqa",
            dict(m=name, n=n, a=c.n_heads, b=c.n_kv_heads),
            kv_cache_bytes(one_kv_per_query, n),
            kv_cache_bytes(c, n),
        )
    )
llama, n = model("Llama-2-7B").config, 4096
rows.append(
    (
        "fp8",
        dict(m="Llama-2-7B", n=n),  # FP8 / INT8: 1 byte a value instead of 2
        kv_cache_bytes(llama, n),
        kv_cache_bytes(llama, n, bytes_per_value=1),
    )
)
rows.append(
    (
        "cla",
        dict(m="Llama-2-7B", n=n),  # illustration: two adjacent layers share one K/V
        kv_cache_bytes(llama, n),
        kv_cache_bytes(replace(llama, n_layers=llama.n_layers // 2), n),
    )
)
mistral = model("Mistral-7B").config
for n in (8192, 32768):  # a sliding window keeps only the last `window` tokens
    rows.append(
        (
            "swa",
            dict(m="Mistral-7B", n=n, w=mistral.window),
            kv_cache_bytes(replace(mistral, window=None), n),
            kv_cache_bytes(mistral, n),
        )
    )
print(figures.savings_table(rows, format_bytes))

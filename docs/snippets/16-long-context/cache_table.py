from dataclasses import replace

from primer.counts import kv_cache_bytes
from primer.figures import long_context as figures
from primer.inputs.long_context import BYTES_PER_VALUE, CONTEXT, RELEASED, RELEASED_CHUNKED
from primer.layer_patterns import cache_shape, interleaved_kinds, pattern_cache_bytes

rows = []
for name, (layers, kv_heads, head_dim, window, local_per_global, _) in RELEASED.items():
    cfg = cache_shape(layers, kv_heads, head_dim, window)
    kinds = interleaved_kinds(layers, local_per_global)
    ours = pattern_cache_bytes(cfg, kinds, CONTEXT, bytes_per_value=BYTES_PER_VALUE)
    full = kv_cache_bytes(replace(cfg, window=None), CONTEXT, bytes_per_value=BYTES_PER_VALUE)  # every layer global
    rows.append((name, "local", kinds.count("local"), kinds.count("global"), window, ours, full))
for name, (layers, kv_heads, head_dim, chunk, chunked_per_global, _) in RELEASED_CHUNKED.items():
    cfg = cache_shape(layers, kv_heads, head_dim, None)
    kinds = interleaved_kinds(layers, chunked_per_global, local="chunked")
    ours = pattern_cache_bytes(cfg, kinds, CONTEXT, chunk=chunk, bytes_per_value=BYTES_PER_VALUE)
    full = kv_cache_bytes(cfg, CONTEXT, bytes_per_value=BYTES_PER_VALUE)
    rows.append((name, "chunked", kinds.count("chunked"), kinds.count("global"), chunk, ours, full))
print(figures.cache_table(rows))

import numpy as np

from primer.figures import memory as figs
from primer.kvcache import KVCache, decode_cached
from primer.memory import kv_cache_bytes
from primer.transformer import Config, init_stack

cfg = Config()                                       # the tiny decoder: 2 layers, 4 heads of 4 dims
params = init_stack(0, cfg)
rows = []
for dtype in (np.float64, np.float16):
    for n in (1, 10, 64):
        cache = KVCache(cfg, dtype=dtype)
        decode_cached(np.arange(n) % cfg.vocab_size, params, cfg, cache)   # fill the cache with n tokens
        formula = kv_cache_bytes(cfg.n_layers, cfg.n_heads, cfg.d_head, n, bytes_per_value=np.dtype(dtype).itemsize)
        rows.append((np.dtype(dtype).name, n, cache.nbytes, formula))
print(figs.nbytes_table(rows))

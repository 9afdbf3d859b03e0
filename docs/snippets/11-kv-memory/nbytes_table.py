import numpy as np

from primer.config import Config
from primer.counts import kv_cache_bytes
from primer.figures import kv_memory as figures
from primer.kv_cache import KVCache, decode_cached
from primer.transformer import init_stack

cfg = Config()  # the tiny decoder: 2 layers, 4 heads of 4 dims
params = init_stack(0, cfg)
rows = []
for dtype in (np.float64, np.float16):
    for n in (1, 10, 64):
        cache = KVCache(cfg, dtype=dtype)
        decode_cached(np.arange(n) % cfg.vocab_size, params, cfg, cache)  # fill the cache with n tokens
        formula = kv_cache_bytes(cfg, n, bytes_per_value=np.dtype(dtype).itemsize)
        rows.append((np.dtype(dtype).name, n, cache.nbytes, formula))
print(figures.nbytes_table(rows))

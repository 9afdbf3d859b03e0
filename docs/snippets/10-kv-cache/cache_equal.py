import numpy as np

from primer.config import Config
from primer.figures import kv_cache as figures
from primer.kv_cache import KVCache, decode_cached
from primer.transformer import decode, init_stack

rows = []
for n_layers, n_heads, n in ((1, 1, 5), (2, 4, 16), (4, 2, 40), (6, 8, 64)):
    cfg = Config(n_layers=n_layers, n_heads=n_heads, d_model=16, max_len=64)
    params = init_stack(0, cfg)
    tokens = np.random.default_rng(n).integers(0, cfg.vocab_size, n)
    full = decode(tokens, params, cfg)  # every position, recomputed from scratch
    cache = KVCache(cfg)
    cached = np.vstack(
        [
            decode_cached(tokens[i : i + 1], params, cfg, cache)  # one new token per step
            for i in range(n)
        ]
    )
    rows.append((n_layers, n_heads, n, np.abs(cached - full).max()))
print(figures.cache_equal(rows))

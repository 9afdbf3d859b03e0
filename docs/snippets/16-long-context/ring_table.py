import numpy as np

from primer.attention import attention
from primer.figures import long_context as figures
from primer.inputs.long_context import RING_D, RING_N, RING_SEED, RING_SINKS, RING_WINDOWS
from primer.kv_cache import ring_decode
from primer.masks import window_mask

q, k, v = np.random.default_rng(RING_SEED).normal(size=(3, RING_N, RING_D))
rows = []
for w in RING_WINDOWS:
    for sinks in (0, RING_SINKS):
        out, sizes = ring_decode(q, k, v, w, sinks=sinks)  # one position at a time, sinks + w slots
        full = attention(q, k, v, window_mask(RING_N, w, sinks=sinks))[0]  # recompute every row under the mask
        every = k.nbytes + v.nbytes  # a cache that keeps all RING_N positions
        rows.append((w, sinks, np.abs(out - full).max(), sizes[0], sizes[-1], every))
print(figures.ring_table(rows))

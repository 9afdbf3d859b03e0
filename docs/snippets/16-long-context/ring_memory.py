import numpy as np

from primer.figures import long_context as figures
from primer.figures import to_html
from primer.inputs.long_context import RING_D, RING_N, RING_SEED, RING_WINDOWS
from primer.kv_cache import ring_decode

q, k, v = np.random.default_rng(RING_SEED).normal(size=(3, RING_N, RING_D))
ring_bytes = {w: ring_decode(q, k, v, w)[1] for w in RING_WINDOWS}  # the ring's bytes after each step
grow_bytes = [k[: t + 1].nbytes + v[: t + 1].nbytes for t in range(RING_N)]  # keys and values of every position
print(to_html(figures.ring_memory(ring_bytes, grow_bytes), div_id="fig-ring-memory"))

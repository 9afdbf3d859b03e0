import numpy as np

from primer.attention import attention
from primer.chunked_prefill import chunked_prefill
from primer.figures import serving as figures
from primer.inputs.serving import CHUNKS, N_PROMPT, SEED, D
from primer.masks import causal_mask
from primer.rounding import is_rounding

q, k, v = np.random.default_rng(SEED).standard_normal((3, N_PROMPT, D))
one_shot = attention(q, k, v, causal_mask(N_PROMPT))[0]  # the whole prompt at once
rows = []
for c in CHUNKS:
    right = np.abs(chunked_prefill(q, k, v, c, alignment="bottom_right") - one_shot)
    left = np.abs(chunked_prefill(q, k, v, c, alignment="top_left") - one_shot)
    moved = int(sum(not is_rounding(row) for row in left))  # outputs the wrong alignment changed
    rows.append((c, right.max(), left.max(), moved, N_PROMPT))
print(figures.alignment_table(rows))

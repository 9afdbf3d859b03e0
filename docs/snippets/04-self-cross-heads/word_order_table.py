import numpy as np

from primer.figures import self_cross_heads as figures
from primer.self_cross_heads import multi_head_attention
from primer.position import LIKE_HEADS, LIKE_SWAP, LIKE_W, LIKE_X, add_positions, permutation_gap


def block(x):  # [n, d] -> [n, d]: one multi-head self-attention sub-layer, no mask
    return multi_head_attention(x, x, *LIKE_W, n_heads=LIKE_HEADS)[0]


def block_with_positions(x):
    return block(add_positions(x))


swap = list(LIKE_SWAP)                 # 我 喜欢 你 -> 你 喜欢 我
like = 1                               # 喜欢 sits at position 1 in both sentences
rows = []
for key, f in (("no_pe", block), ("with_pe", block_with_positions)):
    gap = permutation_gap(f, LIKE_X, swap)
    like_diff = float(np.max(np.abs(f(LIKE_X)[like] - f(LIKE_X[swap])[like])))
    rows.append((key, gap, like_diff))
print(figures.word_order_table(rows))

import numpy as np

from primer.figures import self_cross_heads as figures
from primer.position import ORDER_HEADS, ORDER_SWAP, ORDER_W, ORDER_X, add_positions, permutation_gap
from primer.self_cross_heads import multi_head_attention


def block(x):  # [n, d] -> [n, d]: one multi-head self-attention sub-layer, no mask
    return multi_head_attention(x, x, *ORDER_W, n_heads=ORDER_HEADS)[0]


def block_with_positions(x):
    return block(add_positions(x))


swap = list(ORDER_SWAP)  # 狗 咬 人 -> 人 咬 狗
verb = 1  # 咬 sits at position 1 in both sentences
rows = []
for key, f in (("no_pe", block), ("with_pe", block_with_positions)):
    gap = permutation_gap(f, ORDER_X, swap)
    verb_diff = float(np.max(np.abs(f(ORDER_X)[verb] - f(ORDER_X[swap])[verb])))
    rows.append((key, gap, verb_diff))
print(figures.word_order_table(rows))

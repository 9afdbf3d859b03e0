import numpy as np

from primer.figures import self_cross_heads as figures
from primer.figures import to_html
from primer.position import ORDER_HEADS, ORDER_SWAP, ORDER_TOKENS, ORDER_W, ORDER_X, add_positions
from primer.self_cross_heads import multi_head_attention


def block(x):
    return multi_head_attention(x, x, *ORDER_W, n_heads=ORDER_HEADS)[0]


swap = list(ORDER_SWAP)
tokens_b = [ORDER_TOKENS[j] for j in swap]
outputs = {}
for key, prep in (("no_pe", lambda x: x), ("with_pe", add_positions)):
    out_a, out_b = block(prep(ORDER_X)), block(prep(ORDER_X[swap]))
    outputs[key] = (out_a, out_b, np.abs(out_b[np.argsort(swap)] - out_a))  # B's rows put back in A's word order
print(to_html(figures.word_order(ORDER_TOKENS, tokens_b, outputs), div_id="fig-word-order"))

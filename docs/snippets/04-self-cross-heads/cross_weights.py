from primer import attention, full_mask
from primer.figures import self_cross_heads as figures
from primer.figures import to_html
from primer.inputs.self_cross_heads import CROSS_SOURCE, CROSS_SOURCE_X, CROSS_TARGET, CROSS_TARGET_X

n_q, n_k = len(CROSS_TARGET), len(CROSS_SOURCE)
_, self_w = attention(CROSS_SOURCE_X, CROSS_SOURCE_X, CROSS_SOURCE_X, full_mask(n_k))  # [5, 5]
_, cross_w = attention(CROSS_TARGET_X, CROSS_SOURCE_X, CROSS_SOURCE_X, full_mask(n_q, n_k))  # [3, 5]
print(to_html(figures.cross_weights(CROSS_SOURCE, CROSS_TARGET, self_w, cross_w), div_id="fig-cross-weights"))

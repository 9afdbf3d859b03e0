from primer.figures import self_cross_heads as figures
from primer.figures import to_html
from primer.inputs.self_cross_heads import (
    APPLE_D_HEAD,
    APPLE_FEATURES,
    APPLE_HEADS,
    APPLE_RELATIONS,
    APPLE_STRENGTH,
    APPLE_TOKENS,
    APPLE_X,
)
from primer.self_cross_heads import multi_head_attention, relation_projections, wide_head_weights

# hand-set, not trained: one relation per head
w_q, w_k, w_v = relation_projections(APPLE_FEATURES, APPLE_HEADS, APPLE_RELATIONS, APPLE_D_HEAD, APPLE_STRENGTH)
_, weights = multi_head_attention(APPLE_X, APPLE_X, w_q, w_k, w_v, None, n_heads=len(APPLE_HEADS))  # [3, 10, 10]
by_head = dict(zip(APPLE_HEADS, weights))
by_head["wide"] = wide_head_weights(APPLE_X, w_q, w_k)  # the same projections as ONE head of width 3 x 4
print(to_html(figures.head_weights(APPLE_TOKENS, by_head), div_id="fig-head-weights"))

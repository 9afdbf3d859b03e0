from primer.figures import self_cross_heads as figures
from primer.inputs.self_cross_heads import (
    APPLE_D_HEAD,
    APPLE_FEATURES,
    APPLE_HEADS,
    APPLE_RELATIONS,
    APPLE_STRENGTH,
    APPLE_TOKENS,
    APPLE_X,
)
from primer.self_cross_heads import multi_head_attention, relation_projections, total_variation, wide_head_weights

w_q, w_k, w_v = relation_projections(APPLE_FEATURES, APPLE_HEADS, APPLE_RELATIONS, APPLE_D_HEAD, APPLE_STRENGTH)
_, weights = multi_head_attention(APPLE_X, APPLE_X, w_q, w_k, w_v, None, n_heads=len(APPLE_HEADS))
wide = wide_head_weights(APPLE_X, w_q, w_k)
i = APPLE_TOKENS.index("苹果")  # the query row to compare
keys = {APPLE_TOKENS.index(w): w for w in ("甜", "买", "斤")}
rows = [(name, weights[h, i], total_variation(weights[h, i], wide[i])) for h, name in enumerate(APPLE_HEADS)]
rows.append(("wide", wide[i], 0.0))
print(figures.wide_head_table("苹果", keys, rows))

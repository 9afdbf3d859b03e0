from primer.figures import heads as fig4
from primer.heads import (APPLE_HEADS, APPLE_TOKENS, APPLE_X, apple_projections, multi_head_attention,
                          total_variation, wide_head_weights)

w_q, w_k, w_v = apple_projections()
_, weights = multi_head_attention(APPLE_X, APPLE_X, w_q, w_k, w_v, None, n_heads=len(APPLE_HEADS))
wide = wide_head_weights(APPLE_X, w_q, w_k)
i = APPLE_TOKENS.index("苹果")                              # the query row to compare
keys = {APPLE_TOKENS.index(w): w for w in ("甜", "买", "斤")}
rows = [(name, weights[h, i], total_variation(weights[h, i], wide[i])) for h, name in enumerate(APPLE_HEADS)]
rows.append(("wide", wide[i], 0.0))
print(fig4.wide_table("苹果", keys, rows))

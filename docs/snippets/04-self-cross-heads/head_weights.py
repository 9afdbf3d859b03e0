from primer.figures import self_cross_heads as figures
from primer.figures import to_html
from primer.self_cross_heads import multi_head_attention, relation_projections, wide_head_weights
from primer.pages.self_cross_heads import (GIVE_D_HEAD, GIVE_FEATURES, GIVE_HEADS, GIVE_RELATIONS, GIVE_STRENGTH,
                                          GIVE_TOKENS, GIVE_X)

# hand-set, not trained: one relation per head
w_q, w_k, w_v = relation_projections(GIVE_FEATURES, GIVE_HEADS, GIVE_RELATIONS, GIVE_D_HEAD, GIVE_STRENGTH)
_, weights = multi_head_attention(GIVE_X, GIVE_X, w_q, w_k, w_v, None, n_heads=len(GIVE_HEADS))  # [3, 10, 10]
by_head = dict(zip(GIVE_HEADS, weights))
by_head["wide"] = wide_head_weights(GIVE_X, w_q, w_k)   # the same projections as ONE head of width 3 x 4
print(to_html(figures.head_weights(GIVE_TOKENS, by_head), div_id="fig-head-weights"))

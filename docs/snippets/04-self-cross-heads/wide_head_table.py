from primer.figures import self_cross_heads as figures
from primer.self_cross_heads import multi_head_attention, relation_projections, total_variation, wide_head_weights
from primer.pages.self_cross_heads import (GIVE_D_HEAD, GIVE_FEATURES, GIVE_HEADS, GIVE_RELATIONS, GIVE_STRENGTH,
                                          GIVE_TOKENS, GIVE_X)

w_q, w_k, w_v = relation_projections(GIVE_FEATURES, GIVE_HEADS, GIVE_RELATIONS, GIVE_D_HEAD, GIVE_STRENGTH)
_, weights = multi_head_attention(GIVE_X, GIVE_X, w_q, w_k, w_v, None, n_heads=len(GIVE_HEADS))
wide = wide_head_weights(GIVE_X, w_q, w_k)
i = GIVE_TOKENS.index("送")                              # the query row to compare
keys = {GIVE_TOKENS.index(w): w for w in ("小王", "书", "她")}
rows = [(name, weights[h, i], total_variation(weights[h, i], wide[i])) for h, name in enumerate(GIVE_HEADS)]
rows.append(("wide", wide[i], 0.0))
print(figures.wide_head_table("送", keys, rows))

from primer.figures import heads as fig4
from primer.figures import to_html
from primer.heads import (APPLE_HEADS, APPLE_TOKENS, APPLE_X, apple_projections, multi_head_attention,
                          wide_head_weights)

w_q, w_k, w_v = apple_projections()                      # hand-set, not trained: one relation per head
_, weights = multi_head_attention(APPLE_X, APPLE_X, w_q, w_k, w_v, None, n_heads=len(APPLE_HEADS))  # [3, 10, 10]
by_head = dict(zip(APPLE_HEADS, weights))
by_head["wide"] = wide_head_weights(APPLE_X, w_q, w_k)   # the same projections as ONE head of width 3 x 4
print(to_html(fig4.head_selector(APPLE_TOKENS, by_head), div_id="fig-head-selector"))

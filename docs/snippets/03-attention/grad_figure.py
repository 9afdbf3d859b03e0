from primer import causal_mask
from primer.figures import attention_general as fig3
from primer.figures import to_html
from primer.gradcheck import GRAD_W_K, GRAD_W_Q, GRAD_W_V, GRAD_X, gradient_reach, self_attention_jacobian

n = GRAD_X.shape[0]
reach = {name: gradient_reach(self_attention_jacobian(GRAD_X, GRAD_W_Q, GRAD_W_K, GRAD_W_V, mask))
         for name, mask in (("no_mask", None), ("causal", causal_mask(n)))}
print(to_html(fig3.reach_heatmap(reach), div_id="fig-grad-figure"))

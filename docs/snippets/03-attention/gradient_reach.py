from primer import causal_mask
from primer.figures import attention as figures
from primer.figures import to_html
from primer.gradcheck import gradient_reach, self_attention_jacobian
from primer.inputs.attention import GRAD_W_K, GRAD_W_Q, GRAD_W_V, GRAD_X

n = GRAD_X.shape[0]
reach = {
    name: gradient_reach(self_attention_jacobian(GRAD_X, GRAD_W_Q, GRAD_W_K, GRAD_W_V, mask))
    for name, mask in (("no_mask", None), ("causal", causal_mask(n)))
}
print(to_html(figures.gradient_reach(reach), div_id="fig-gradient-reach"))

from primer import causal_mask
from primer.figures import attention as figures
from primer.gradcheck import (
    gradient_reach,
    max_relative_error,
    numerical_jacobian,
    self_attention,
    self_attention_jacobian,
)
from primer.inputs.attention import GRAD_W_K, GRAD_W_Q, GRAD_W_V, GRAD_X

n = GRAD_X.shape[0]
results = {}
for name, mask in (("no_mask", None), ("causal", causal_mask(n))):
    analytic = self_attention_jacobian(GRAD_X, GRAD_W_Q, GRAD_W_K, GRAD_W_V, mask)  # [n, d_v, n, d]
    numeric = numerical_jacobian(lambda x, mask=mask: self_attention(x, GRAD_W_Q, GRAD_W_K, GRAD_W_V, mask), GRAD_X)
    reach = gradient_reach(analytic)  # [n, n]
    nonzero = reach > 1e-12
    results[name] = (max_relative_error(analytic, numeric), int(nonzero.sum()), n * n, float(reach[nonzero].min()))
print(figures.grad_table(results))

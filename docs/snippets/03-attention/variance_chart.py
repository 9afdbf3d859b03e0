from primer.figures import attention as figures
from primer.figures import to_html
from primer.inputs.attention import VARIANCE_DKS
from primer.scores import score_variance, softmax_saturation

variances = [score_variance(d_k, n_samples=20_000, seed=0) for d_k in VARIANCE_DKS]
saturations = [softmax_saturation(d_k, n_keys=16, n_trials=2_000, seed=0) for d_k in VARIANCE_DKS]
fig = figures.variance_chart(VARIANCE_DKS, variances, saturations, n_keys=16)
print(to_html(fig, div_id="fig-variance-chart"))

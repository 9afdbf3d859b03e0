from primer.figures import attention as figures
from primer.inputs.attention import VARIANCE_DKS
from primer.scores import softmax_saturation

# One query against 16 keys, 2,000 seeded trials per d_k: how peaked is the softmax row?
rows = [(d_k, softmax_saturation(d_k, n_keys=16, n_trials=2_000, seed=0)) for d_k in VARIANCE_DKS]
print(figures.saturation_table(rows, n_keys=16))

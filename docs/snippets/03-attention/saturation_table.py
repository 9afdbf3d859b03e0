from primer.figures import attention_general as fig3
from primer.scores import VARIANCE_DKS, softmax_saturation

# One query against 16 keys, 2,000 seeded trials per d_k: how peaked is the softmax row?
rows = [(d_k, softmax_saturation(d_k, n_keys=16, n_trials=2_000, seed=0)) for d_k in VARIANCE_DKS]
print(fig3.saturation_table(rows, n_keys=16))

from primer.figures import attention_general as fig3
from primer.scores import VARIANCE_DKS, score_variance

# 20,000 seeded draws of q and k with unit-variance components, for each d_k.
rows = [(d_k, *score_variance(d_k, n_samples=20_000, seed=0)) for d_k in VARIANCE_DKS]
print(fig3.variance_table(rows))

from primer.figures import attention as figures
from primer.inputs.attention import VARIANCE_DKS
from primer.scores import score_variance

# 20,000 seeded draws of q and k with unit-variance components, for each d_k.
rows = [(d_k, *score_variance(d_k, n_samples=20_000, seed=0)) for d_k in VARIANCE_DKS]
print(figures.variance_table(rows))

import numpy as np

from primer.sampling import NEXT_LOGITS, sample

rng = np.random.default_rng(0)
print(sample(NEXT_LOGITS, 0.7, rng=rng))         # T > 0: a sampled id
print(sample(NEXT_LOGITS, 0, greedy=True))        # T = 0, greedy asked for
try:
    sample(NEXT_LOGITS, 0, rng=rng)               # T = 0, no greedy=True
except ValueError as err:
    print("ValueError:", err)

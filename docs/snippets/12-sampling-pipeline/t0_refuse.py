import numpy as np

from primer.sampling import NEXT_LOGITS, sample

rng = np.random.default_rng(0)
print(sample(NEXT_LOGITS, 0.7, rng=rng))            # a sampled id
print(sample(NEXT_LOGITS, 0, greedy=True))           # T = 0 only when greedy is asked for
try:
    sample(NEXT_LOGITS, 0, rng=rng)                  # T = 0 without greedy=True: refused
except ValueError as err:
    print("ValueError:", err)

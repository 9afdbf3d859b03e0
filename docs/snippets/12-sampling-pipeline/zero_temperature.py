import numpy as np

from primer.decoding import sample
from primer.inputs.sampling_pipeline import NEXT_LOGITS

rng = np.random.default_rng(0)
print(sample(NEXT_LOGITS, 0.7, rng=rng))  # T > 0: a sampled id
print(sample(NEXT_LOGITS, 0, greedy=True))  # T = 0, greedy asked for
try:
    sample(NEXT_LOGITS, 0, rng=rng)  # T = 0, no greedy=True
except ValueError as err:
    print("ValueError:", err)

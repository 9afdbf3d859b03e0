import numpy as np

from primer.figures import sampling as figs
from primer.sampling import DRAW_SEED, N_DRAWS, NEXT_LOGITS, TABLE_TEMPERATURES, frequencies, greedy, temperature_softmax

one_hot = np.eye(NEXT_LOGITS.size)[greedy(NEXT_LOGITS)]
probs = [one_hot] + [temperature_softmax(NEXT_LOGITS, t) for t in TABLE_TEMPERATURES]
freqs = [one_hot] + [frequencies(NEXT_LOGITS, t, N_DRAWS, DRAW_SEED) for t in TABLE_TEMPERATURES]
print(figs.frequency_table((0,) + TABLE_TEMPERATURES, probs, freqs))

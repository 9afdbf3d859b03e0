import numpy as np

from primer.decoding import frequencies, greedy, temperature_softmax
from primer.figures import sampling_pipeline as figures
from primer.inputs.sampling_pipeline import DRAW_SEED, N_DRAWS, NEXT_LOGITS, TABLE_TEMPERATURES

one_hot = np.eye(NEXT_LOGITS.size)[greedy(NEXT_LOGITS)]
probs = [one_hot] + [temperature_softmax(NEXT_LOGITS, t) for t in TABLE_TEMPERATURES]
freqs = [one_hot] + [frequencies(NEXT_LOGITS, t, N_DRAWS, DRAW_SEED) for t in TABLE_TEMPERATURES]
print(figures.frequency_table((0,) + TABLE_TEMPERATURES, probs, freqs))

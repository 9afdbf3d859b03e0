import numpy as np

from primer import writing
from primer.experiments.trained_decoder import trained_decoder
from primer.figures import sampling_pipeline as figures
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.sampling_pipeline import SAME_DRAWS_TEMPERATURES, TRAINED_N_NEW, TRAINED_PROMPT, TRAINED_SEEDS

data, cfg, decoder = trained_decoder(**EXPERIMENT)
model, prompt = (decoder.params, cfg, data.vocab), TRAINED_PROMPT.split()
low, high = SAME_DRAWS_TEMPERATURES  # 0.5 and 1.0, each drawing with the same seeds


def bins(probs):  # [vocab] -> [vocab + 1]: inverse-CDF sampling picks word i when u falls in [edge i, edge i + 1)
    return np.concatenate([[0.0], np.cumsum(probs)])


a, b = (bins(p) for p in writing.next_word_probs(*model, prompt, [(low, None, None), (high, None, None)]))
p_same = np.clip(np.minimum(a[1:], b[1:]) - np.maximum(a[:-1], b[:-1]), 0, None).sum()  # u in word i's bin at both
same = sum(
    writing.write(*model, prompt, TRAINED_N_NEW, seed=s, temperature=low)
    == writing.write(*model, prompt, TRAINED_N_NEW, seed=s, temperature=high)
    for s in TRAINED_SEEDS
)
print(figures.same_draws_table(low, high, TRAINED_PROMPT, p_same, same, len(TRAINED_SEEDS), TRAINED_N_NEW))

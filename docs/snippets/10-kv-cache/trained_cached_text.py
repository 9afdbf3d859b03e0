import numpy as np

from primer.decoding import generate
from primer.experiments.trained_decoder import trained_decoder
from primer.figures import kv_cache as figures
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.kv_cache import TRAINED_N_NEW, TRAINED_PROMPTS
from primer.vocab import to_ids, to_words

# Chapter 7's decoder, trained under the causal mask on the grammar's sentences
data, cfg, decoder = trained_decoder(**EXPERIMENT)
params = decoder.params
rows = []
for prompt in TRAINED_PROMPTS:
    ids = to_ids(prompt.split(), data.vocab)
    full_steps, cached_steps = [], []  # each step's {"input", "logits", "next"}; greedy both times
    full = generate(ids, params, cfg, TRAINED_N_NEW, cached=False, record=full_steps)
    cached = generate(ids, params, cfg, TRAINED_N_NEW, cached=True, record=cached_steps)
    diff = max(np.abs(a["logits"] - b["logits"]).max() for a, b in zip(full_steps, cached_steps))
    rows.append((prompt, to_words(full, data.vocab), to_words(cached, data.vocab), diff))
print(figures.trained_cached_text(rows))

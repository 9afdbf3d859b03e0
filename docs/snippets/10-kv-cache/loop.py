import numpy as np

from primer.experiments.trained_decoder import trained_decoder
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.kv_cache import LOOP_PROMPT, STEPS
from primer.transformer import decode

data, cfg, decoder = trained_decoder(**EXPERIMENT)
params, vocab = decoder.params, data.vocab  # chapter 7's trained decoder and its words
tokens = [vocab.index(w) for w in LOOP_PROMPT.split()]
for _ in range(STEPS):
    logits = decode(np.array(tokens), params, cfg)  # the whole prefix, from scratch, every step
    tokens.append(int(np.argmax(logits[-1])))  # only the last row: predict, then append
print(" ".join(vocab[t] for t in tokens))

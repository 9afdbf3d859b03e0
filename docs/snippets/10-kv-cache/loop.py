import numpy as np

from primer.config import Config
from primer.pages.kv_cache import PROMPT, SEED, VOCAB
from primer.transformer import decode, init_stack

cfg = Config()
params = init_stack(SEED, cfg)
tokens = list(PROMPT)
for _ in range(4):
    logits = decode(np.array(tokens), params, cfg)  # the whole prefix, from scratch, every step
    tokens.append(int(np.argmax(logits[-1])))  # only the last row: predict, then append
print(" ".join(VOCAB[t] for t in tokens))

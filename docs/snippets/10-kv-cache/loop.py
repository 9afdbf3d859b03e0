import numpy as np

from primer.generate import TOY_PROMPT, TOY_SEED, TOY_VOCAB
from primer.transformer import Config, decode, init_stack

cfg = Config()
params = init_stack(TOY_SEED, cfg)
tokens = list(TOY_PROMPT)
for _ in range(4):
    logits = decode(np.array(tokens), params, cfg)   # the whole prefix, from scratch, every step
    tokens.append(int(np.argmax(logits[-1])))        # only the last row: predict, then append
print(" ".join(TOY_VOCAB[t] for t in tokens))

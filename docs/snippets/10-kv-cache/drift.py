import numpy as np

from primer.figures import generation
from primer.generate import TOY_PROMPT, TOY_SEED
from primer.kvcache import old_rows_drift
from primer.transformer import Config, init_stack

cfg = Config()
params = init_stack(TOY_SEED, cfg)
prefix, appended = np.array(TOY_PROMPT), 14                 # "the cat sat" + "near"
causal = old_rows_drift(prefix, appended, params, cfg, mask="causal")
full = old_rows_drift(prefix, appended, params, cfg, mask="full")  # same weights, bidirectional
print(generation.drift_table(causal, full))

import numpy as np

from primer.config import Config
from primer.figures import kv_cache as figures
from primer.inputs.kv_cache import APPENDED, PROMPT, SEED
from primer.kv_cache import old_rows_drift
from primer.transformer import init_stack

cfg = Config()
params = init_stack(SEED, cfg)
prefix = np.array(PROMPT)  # "the cat sat", then APPENDED: "near"
causal = old_rows_drift(prefix, APPENDED, params, cfg, "decoder")
full = old_rows_drift(prefix, APPENDED, params, cfg, "encoder")  # same weights, bidirectional
print(figures.drift_table(causal, full))

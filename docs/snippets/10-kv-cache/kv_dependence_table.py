import numpy as np

from primer.figures import kv_cache as figures
from primer.kv_cache import new_row_dependence

rng = np.random.default_rng(0)
q, k, v = rng.normal(size=(6, 4)), rng.normal(size=(6, 4)), rng.normal(size=(6, 4))  # 6 positions; row 5 is new
change = new_row_dependence(q, k, v)  # replace rows 0..4 of q, of k, of v by noise; watch row 5's output
print(figures.kv_dependence_table(change))

import numpy as np

from primer import wild_bugs
from primer.figures import mask_bugs as figures
from primer.inputs.mask_bugs import N_PAD, SEED, D, N
from primer.mask_checks import check_padding

x = np.random.default_rng(SEED).standard_normal((N, D))  # the rows the checks start from too
valid = np.arange(N) < N - N_PAD  # True: a real token; the last N_PAD rows are padding
buggy, fixed = wild_bugs.layers("nan_rows")
measured = wild_bugs.symptom("nan_rows", x, valid=valid)
verdicts = [check_padding(f, n=N, d=D, n_pad=N_PAD, seed=SEED) for f in (buggy, fixed)]
print(figures.bug_table(wild_bugs.BUGS["nan_rows"].measure, measured, verdicts))

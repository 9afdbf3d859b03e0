import numpy as np

from primer import wild_bugs
from primer.figures import mask_bugs as figures
from primer.inputs.mask_bugs import SEED, WINDOW, D, N
from primer.mask_checks import check_cache
from primer.masks import window_mask

x = np.random.default_rng(SEED).standard_normal((N, D))  # the rows the checks start from too
buggy, fixed = wild_bugs.layers("window", window=WINDOW)
measured = wild_bugs.symptom("window", x, window=WINDOW)
mask = window_mask(N, WINDOW)  # what the full pass must read: check_cache judges it when a step disagrees
verdicts = [check_cache(step, full, n=N, d=D, seed=SEED, mask=mask) for step, full in (buggy, fixed)]
print(figures.bug_table(wild_bugs.BUGS["window"].measure, measured, verdicts))

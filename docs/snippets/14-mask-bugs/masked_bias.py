import numpy as np

from primer import wild_bugs
from primer.figures import mask_bugs as figures
from primer.inputs.mask_bugs import SEED, SHIFT_MASKED_BIAS, D, N
from primer.mask_checks import check_causal

x = np.random.default_rng(SEED).standard_normal((N, D))  # the rows the checks start from too
buggy, fixed = wild_bugs.layers("masked_bias", shift=SHIFT_MASKED_BIAS)
measured = wild_bugs.symptom("masked_bias", x, shift=SHIFT_MASKED_BIAS)
verdicts = [check_causal(f, n=N, d=D, seed=SEED) for f in (buggy, fixed)]
print(figures.bug_table(wild_bugs.BUGS["masked_bias"].measure, measured, verdicts))

import numpy as np

from primer import wild_bugs
from primer.figures import mask_bugs as figures
from primer.inputs.mask_bugs import N_PAD, ORDER, SEED, SHIFT_FP16, SHIFT_MASKED_BIAS, WINDOW, D, N

x = np.random.default_rng(SEED).standard_normal((N, D))
valid = np.arange(N) < N - N_PAD
shifts = {"masked_bias": SHIFT_MASKED_BIAS, "fp16_min": SHIFT_FP16}
results = {}
for name in ORDER:
    kw = dict(shift=shifts.get(name, 0.0), window=WINDOW)
    verdicts = wild_bugs.checked(name, n=N, d=D, n_pad=N_PAD, seed=SEED, **kw)  # buggy, fixed
    results[name] = (wild_bugs.symptom(name, x, valid=valid, **kw), verdicts)
print(figures.overview_table([wild_bugs.BUGS[name] for name in ORDER], results))

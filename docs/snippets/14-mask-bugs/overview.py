import numpy as np

from primer import wild_bugs
from primer.figures import mask_bugs as figures
from primer.mask_checks import check_cache, check_causal, check_padding
from primer.pages.mask_bugs import N_PAD, ORDER, SEED, SHIFT_FP16, SHIFT_MASKED_BIAS, WINDOW, D, N

x = np.random.default_rng(SEED).standard_normal((N, D))
valid = np.arange(N) < N - N_PAD
shifts = {"masked_bias": SHIFT_MASKED_BIAS, "fp16_min": SHIFT_FP16}
results = {}
for name in ORDER:
    bug = wild_bugs.BUGS[name]
    pair = wild_bugs.layers(name, shift=shifts.get(name, 0.0), window=WINDOW)
    if bug.check == "causal":
        verdicts = [check_causal(f, n=N, d=D, seed=SEED) for f in pair]
    elif bug.check == "padding":
        verdicts = [check_padding(f, n=N, d=D, n_pad=N_PAD, seed=SEED) for f in pair]
    else:
        verdicts = [check_cache(step, full, n=N, d=D, seed=SEED) for step, full in pair]
    measured = wild_bugs.symptom(name, x, valid=valid, shift=shifts.get(name, 0.0), window=WINDOW)
    results[name] = (measured, verdicts)
print(figures.overview_table([wild_bugs.BUGS[name] for name in ORDER], results))

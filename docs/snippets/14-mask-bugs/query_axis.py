from functools import partial

import numpy as np

from primer import wild_bugs
from primer.figures import mask_bugs as figures
from primer.inputs.mask_bugs import N_PAD, SEED, D, N
from primer.mask_checks import check_padding

x = np.random.default_rng(SEED).standard_normal((N, D))  # the rows the checks start from too
valid = np.arange(N) < N - N_PAD  # True: a real token; the last N_PAD rows are padding
buggy, fixed = wild_bugs.layers("query_axis")
measured = wild_bugs.symptom("query_axis", x, valid=valid)
verdicts = wild_bugs.checked("query_axis", n=N, d=D, n_pad=N_PAD, seed=SEED)  # padded on the right, as its project did
print(figures.bug_table(wild_bugs.BUGS["query_axis"].measure, measured, verdicts))  # under -inf, as PR #40 warns
# As the project ran it, with -10000: a real query never reaches a pad (the pads come last, the causal mask closes
# them), and the padded rows spread evenly instead of turning NaN
shipped = partial(wild_bugs.query_axis_bug, fill=wild_bugs.HYUNWOONGKO_FILL)
verdict = check_padding(shipped, n=N, d=D, n_pad=N_PAD, seed=SEED, side="right")  # the project's pads came last
print()
print(figures.shipped_note(*wild_bugs.query_axis_shipped(x, valid), verdict))

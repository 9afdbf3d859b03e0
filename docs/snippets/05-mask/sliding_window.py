import numpy as np

from primer import masked_softmax, window_mask
from primer.figures import mask as figures
from primer.figures import to_html

n = 5
scores = np.tile(np.arange(float(n)), (n, 1))  # the same scores in every row, one apart
windows = list(range(n, -1, -1))  # n (plain causal) down to 0
shown, refused = {}, {}
for w in windows:
    try:
        mask = window_mask(n, w)  # query i reads keys i-w+1 .. i: w keys, itself included
        shown[w] = (masked_softmax(scores, mask), mask)
    except ValueError as err:  # primer refuses a window that empties every row
        refused[w] = str(err)
fig = figures.sliding_window(scores, windows, shown, refused)
print(to_html(fig, div_id="fig-sliding-window"))

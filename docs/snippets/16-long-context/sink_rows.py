import numpy as np

from primer.figures import long_context as figures
from primer.inputs.long_context import SINK_BOOST, SINK_KEYS, SINK_LOGIT, SINK_SEED, SINK_WINDOW
from primer.masks import causal_mask, window_mask
from primer.sinks import sink_softmax
from primer.softmax import masked_softmax

scores = np.random.default_rng(SINK_SEED).normal(size=SINK_KEYS)
scores[0] += SINK_BOOST  # the first key scores high, as a sink does
last = SINK_KEYS - 1  # the row of the last query
window = window_mask(SINK_KEYS, SINK_WINDOW)[last]
rows = [
    ("causal", masked_softmax(scores, causal_mask(SINK_KEYS)[last])),
    ("window", masked_softmax(scores, window)),
    ("window_sink", masked_softmax(scores, window_mask(SINK_KEYS, SINK_WINDOW, sinks=1)[last])),
    ("sink_logit", sink_softmax(scores[None, :], SINK_LOGIT, window[None, :])[0]),  # one extra column, then dropped
]
print(figures.sink_table(rows))

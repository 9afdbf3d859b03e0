import numpy as np

from primer.decoding import entropy_nats, frequencies, greedy, temperature_softmax
from primer.figures import sampling_pipeline as figures
from primer.figures import to_html
from primer.inputs.sampling_pipeline import DRAW_SEED, N_DRAWS, NEXT_LOGITS, SLIDER_TEMPERATURES

temps = (0,) + SLIDER_TEMPERATURES  # step 0 is greedy: T -> 0
one_hot = np.eye(NEXT_LOGITS.size)[greedy(NEXT_LOGITS)]  # greedy always picks the largest logit
probs = [one_hot] + [temperature_softmax(NEXT_LOGITS, t) for t in SLIDER_TEMPERATURES]
freqs = [one_hot] + [frequencies(NEXT_LOGITS, t, N_DRAWS, DRAW_SEED) for t in SLIDER_TEMPERATURES]
fig = figures.temperature(
    temps, probs, freqs, [entropy_nats(p) for p in probs], n_draws=N_DRAWS, active=temps.index(1.0)
)
print(to_html(fig, div_id="fig-temperature"))

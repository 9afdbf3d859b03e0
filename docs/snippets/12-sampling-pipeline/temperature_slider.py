import numpy as np

from primer.figures import sampling as figs, to_html
from primer.sampling import (DRAW_SEED, N_DRAWS, NEXT_LOGITS, SLIDER_TEMPERATURES, entropy_bits, frequencies,
                             greedy, temperature_softmax)

temps = (0,) + SLIDER_TEMPERATURES                              # step 0 is greedy: T -> 0
one_hot = np.eye(NEXT_LOGITS.size)[greedy(NEXT_LOGITS)]         # greedy always picks the largest logit
probs = [one_hot] + [temperature_softmax(NEXT_LOGITS, t) for t in SLIDER_TEMPERATURES]
freqs = [one_hot] + [frequencies(NEXT_LOGITS, t, N_DRAWS, DRAW_SEED) for t in SLIDER_TEMPERATURES]
fig = figs.temperature_slider(temps, probs, freqs, [entropy_bits(p) for p in probs],
                              n_draws=N_DRAWS, active=temps.index(1.0))
print(to_html(fig, div_id="fig-temperature-slider"))

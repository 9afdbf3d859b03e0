from primer import causal_mask, masked_softmax
from primer.figures import mask as figures
from primer.figures import to_html
from primer.inputs.mask import SCORES_3X3

mask = causal_mask(3)
weights = masked_softmax(SCORES_3X3, mask)
fig = figures.scores_mask_softmax(SCORES_3X3, mask, weights)
print(to_html(fig, div_id="fig-scores-mask-softmax"))

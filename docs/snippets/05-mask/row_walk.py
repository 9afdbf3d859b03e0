from primer import causal_mask, masked_softmax
from primer.figures import mask as figures
from primer.figures import to_html
from primer.inputs.mask import FOUR_SCORES

mask = causal_mask(4)
fig = figures.row_walk(masked_softmax(FOUR_SCORES, mask), mask)
print(to_html(fig, div_id="fig-row-walk"))

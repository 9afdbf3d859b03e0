from primer import causal_mask, masked_softmax
from primer.examples import FOUR_SCORES
from primer.figures import masking, to_html

mask = causal_mask(4)
fig = masking.row_walk(masked_softmax(FOUR_SCORES, mask), mask)
print(to_html(fig, div_id="fig-row-walk"))

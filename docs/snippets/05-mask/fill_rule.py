from primer import causal_mask, masked_softmax
from primer.figures import mask as figures
from primer.figures import to_html
from primer.inputs.mask import FOUR_SCORES, LEAK_KEY, LEAK_ROW

mask = causal_mask(4)
correct = masked_softmax(FOUR_SCORES, mask)[LEAK_ROW]
buggy = masked_softmax(FOUR_SCORES, mask, fill=0.0)[LEAK_ROW]
fig = figures.fill_rule(correct, buggy, mask[LEAK_ROW], leak_key=LEAK_KEY)
print(to_html(fig, div_id="fig-fill-rule"))

from primer import causal_mask, masked_softmax
from primer.pages.mask import FOUR_SCORES, LEAK_KEY, LEAK_ROW
from primer.figures import mask as figures

mask = causal_mask(4)
correct = masked_softmax(FOUR_SCORES, mask)[LEAK_ROW]            # closed keys get −∞
buggy = masked_softmax(FOUR_SCORES, mask, fill=0.0)[LEAK_ROW]    # closed keys get 0: the bug
print(figures.fill_rule_table(correct, buggy, mask[LEAK_ROW], leak_key=LEAK_KEY))

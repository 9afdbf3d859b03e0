from primer import causal_mask, masked_softmax
from primer.figures import mask as figures
from primer.inputs.mask import FOUR_SCORES, LEAK_KEY, LEAK_ROW

mask = causal_mask(4)
correct = masked_softmax(FOUR_SCORES, mask)[LEAK_ROW]  # closed keys get −∞
buggy = masked_softmax(FOUR_SCORES, mask, fill=0.0)[LEAK_ROW]  # 0 is added: the closed key keeps its score
replaced = masked_softmax(FOUR_SCORES, mask, fill=0.0, replace=True)[LEAK_ROW]  # masked_fill(…, 0): its score becomes 0
print(figures.fill_rule_table(correct, buggy, mask[LEAK_ROW], leak_key=LEAK_KEY, replaced=replaced))

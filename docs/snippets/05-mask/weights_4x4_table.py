from primer import causal_mask, masked_softmax
from primer.examples import FOUR_SCORES
from primer.figures import masking

weights = masked_softmax(FOUR_SCORES, causal_mask(4))
print(masking.weights_table(weights, digits=1))

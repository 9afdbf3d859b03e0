from primer import causal_mask, masked_softmax
from primer.figures import mask as figures
from primer.inputs.mask import FOUR_SCORES

weights = masked_softmax(FOUR_SCORES, causal_mask(4))
print(figures.weights_table(weights, digits=1))

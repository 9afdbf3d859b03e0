from primer import causal_mask, masked_softmax
from primer.figures import mask as figures
from primer.inputs.mask import SCORES_3X3

weights = masked_softmax(SCORES_3X3, causal_mask(3))  # the −∞ mask, then a row-wise softmax
print(figures.weights_table(weights, digits=0))

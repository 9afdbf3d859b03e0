from primer.figures import real_model as figures
from primer.inputs.real_model import N_TOKENS, PASSAGE
from primer.pretrained import measure

result = measure.bidirectional(PASSAGE, N_TOKENS)  # mask None (causal), then full_mask(n)
print(figures.bidirectional_table(result))

from primer.figures import real_model as figures
from primer.inputs.real_model import CACHE_PROMPT, N_TOKENS, PASSAGE
from primer.pretrained import measure

result = measure.cache_gap(PASSAGE, N_TOKENS, CACHE_PROMPT)  # model.forward([token], past=past), token by token
print(figures.cache_table(result, measure.GAP_BOUNDS))

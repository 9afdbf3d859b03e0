from primer.experiments import real_model
from primer.figures import real_model as figures
from primer.inputs.real_model import CACHE_PROMPT, N_TOKENS, PASSAGE

result = real_model.cache_gap(PASSAGE, N_TOKENS, CACHE_PROMPT)  # model.forward([token], past=past), token by token
print(figures.cache_table(result, real_model.GAP_BOUNDS))

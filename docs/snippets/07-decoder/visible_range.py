from primer import causal_mask, mlm
from primer.figures import decoder, to_html
from primer.leak import CFG, SEED
from primer.transformer import embed, init_stack, stack

words = list(mlm.SENTENCE)
params = init_stack(SEED, CFG)
x = embed(mlm.ids(words), params, CFG)
weights = stack(x, params, CFG, causal_mask(len(words)))[1][0]["self"].mean(axis=0)  # the decoder, layer 1
print(to_html(decoder.visible_range(words, weights), div_id="fig-visible-range"))

from primer import causal_mask, full_mask, mlm
from primer.figures import decoder, to_html
from primer.leak import CFG, SEED
from primer.transformer import embed, init_stack, stack

words = list(mlm.SENTENCE)
params = init_stack(SEED, CFG)                      # the same weights under both masks
x = embed(mlm.ids(words), params, CFG)
n = len(words)
w_full = stack(x, params, CFG, full_mask(n))[1][0]["self"].mean(axis=0)      # layer 1, head average
w_causal = stack(x, params, CFG, causal_mask(n))[1][0]["self"].mean(axis=0)
print(to_html(decoder.same_row(words, w_full, w_causal, row=2), div_id="fig-same-row"))

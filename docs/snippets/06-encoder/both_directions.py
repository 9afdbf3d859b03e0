from primer import full_mask, mlm
from primer.figures import encoder, to_html
from primer.leak import CFG, SEED
from primer.transformer import embed, init_stack, stack

words = list(mlm.SENTENCE)                          # the cat sat on the mat
params = init_stack(SEED, CFG)                      # seeded random weights, not a trained model
x = embed(mlm.ids(words), params, CFG)
_, per_layer = stack(x, params, CFG, full_mask(len(words)))   # the encoder: a full mask
weights = per_layer[0]["self"].mean(axis=0)         # layer 1, averaged over the heads: [n, n]
print(to_html(encoder.both_directions(words, weights), div_id="fig-both-directions"))

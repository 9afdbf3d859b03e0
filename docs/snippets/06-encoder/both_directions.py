from primer import full_mask, mlm
from primer.config import Config
from primer.figures import encoder as figures
from primer.figures import to_html
from primer.inputs.encoder import SEED
from primer.transformer import embed, init_stack, stack
from primer.vocab import CAT_VOCAB, to_ids

words = list(mlm.SENTENCE)  # the cat sat on the mat
CFG = Config(vocab_size=len(CAT_VOCAB))  # primer's tiny stack over the cat vocabulary
params = init_stack(SEED, CFG)  # seeded random weights, not a trained model
x = embed(to_ids(words, CAT_VOCAB), params, CFG)
_, per_layer = stack(x, params, CFG, full_mask(len(words)))  # the encoder: a full mask
weights = per_layer[0]["self"].mean(axis=0)  # layer 1, averaged over the heads: [n, n]
print(to_html(figures.both_directions(words, weights), div_id="fig-both-directions"))

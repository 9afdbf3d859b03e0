from primer import causal_mask, mlm
from primer.config import Config
from primer.figures import decoder as figures
from primer.figures import to_html
from primer.inputs.encoder import SEED
from primer.transformer import embed, init_stack, stack
from primer.vocab import CAT_VOCAB, to_ids

words = list(mlm.SENTENCE)
CFG = Config(vocab_size=len(CAT_VOCAB))  # primer's tiny stack over the cat vocabulary
params = init_stack(SEED, CFG)
x = embed(to_ids(words, CAT_VOCAB), params, CFG)
weights = stack(x, params, CFG, causal_mask(len(words)))[1][0]["self"].mean(axis=0)  # the decoder, layer 1
print(to_html(figures.visible_range(words, weights), div_id="fig-visible-range"))

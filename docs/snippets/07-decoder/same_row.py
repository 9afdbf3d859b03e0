from primer import causal_mask, full_mask, mlm
from primer.config import Config
from primer.figures import decoder as figures
from primer.figures import to_html
from primer.inputs.encoder import SEED
from primer.transformer import embed, init_stack, stack
from primer.vocab import CAT_VOCAB, to_ids

words = list(mlm.SENTENCE)
CFG = Config(vocab_size=len(CAT_VOCAB))  # primer's tiny stack over the cat vocabulary
params = init_stack(SEED, CFG)  # the same weights under both masks
x = embed(to_ids(words, CAT_VOCAB), params, CFG)
n = len(words)
w_full = stack(x, params, CFG, full_mask(n))[1][0]["self"].mean(axis=0)  # layer 1, the mean over its heads
w_causal = stack(x, params, CFG, causal_mask(n))[1][0]["self"].mean(axis=0)
print(to_html(figures.same_row(words, w_full, w_causal, row=2, n_heads=CFG.n_heads), div_id="fig-same-row"))

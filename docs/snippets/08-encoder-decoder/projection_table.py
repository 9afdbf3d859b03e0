from primer import encdec
from primer.pages import encoder_decoder as page
from primer.vocab import to_ids, to_words
from primer.figures import encoder_decoder as figures

# Greedy runs of 1..6 steps; the two loops must generate the same tokens (checked inside).
rows = encdec.projection_counts(max_steps=page.STEPS)
print(figures.projection_table(rows))
enc, dec = encdec.model()
tokens = encdec.generate(to_ids(page.SOURCE, page.VOCAB), enc, dec, page.CFG, page.STEPS)
print(f"`{' '.join(page.SOURCE)}` → `{' '.join(to_words(tokens, page.VOCAB))}`  (n_layers = {page.CFG.n_layers})")

from primer import encoder_decoder
from primer.config import Config
from primer.figures import encoder_decoder as figures
from primer.inputs import encoder_decoder as page
from primer.vocab import to_ids, to_words

# Greedy runs of 1..6 steps; the two loops must generate the same tokens (checked inside).
cfg = Config(**page.CONFIG)
enc, dec = encoder_decoder.model(cfg, page.ENC_SEED, page.DEC_SEED)
source = to_ids(page.SOURCE, page.VOCAB)
rows = encoder_decoder.projection_counts(source, enc, dec, cfg, page.STEPS)
print(figures.projection_table(rows))
tokens = encoder_decoder.generate(source, enc, dec, cfg, page.STEPS)
print(f"`{' '.join(page.SOURCE)}` → `{' '.join(to_words(tokens, page.VOCAB))}`  (n_layers = {cfg.n_layers})")

from primer import translator
from primer.figures import encoder_decoder as figures
from primer.pages import encoder_decoder as page
from primer.pages.decoder import GRAMMAR

rows = []
for seed in page.TRANSLATION_SEEDS:
    run = translator.experiment(GRAMMAR, **page.TRANSLATION, seed=seed)
    p = run.pairs
    rows.append([seed, len(p.train), len(p.heldout), p.overlap, p.diagonal])
print(figures.translation_data_table(rows))

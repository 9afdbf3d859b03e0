from primer.experiments import translator
from primer.figures import encoder_decoder as figures
from primer.inputs import encoder_decoder as page
from primer.inputs.decoder import GRAMMAR

rows = []
for seed in page.TRANSLATION_SEEDS:
    run = translator.translators(GRAMMAR, **page.TRANSLATION, seed=seed)
    p = run.pairs
    rows.append([seed, len(p.train), len(p.heldout), p.overlap, p.diagonal])
print(figures.translation_data_table(rows))

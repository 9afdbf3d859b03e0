from primer.experiments import translator
from primer.figures import encoder_decoder as figures
from primer.inputs import encoder_decoder as page
from primer.inputs.decoder import GRAMMAR

runs = [translator.translators(GRAMMAR, **page.TRANSLATION, seed=seed) for seed in page.TRANSLATION_SEEDS]
trained = [translator.alignment_agreement(r.enc, r.dec, r.pairs, r.cfg.n_heads) for r in runs]
start = [translator.alignment_agreement(*r.start, r.pairs, r.cfg.n_heads) for r in runs]
print(figures.alignment_table(trained, start, translator.alignment_chance(runs[0].pairs)))

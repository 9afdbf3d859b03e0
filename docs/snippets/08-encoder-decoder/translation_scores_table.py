from primer.experiments import translator
from primer.figures import encoder_decoder as figures
from primer.inputs import encoder_decoder as page
from primer.inputs.decoder import GRAMMAR

runs = [(seed, translator.translators(GRAMMAR, **page.TRANSLATION, seed=seed)) for seed in page.TRANSLATION_SEEDS]
print(figures.translation_scores_table(runs))

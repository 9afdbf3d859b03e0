from primer import translator
from primer.figures import encoder_decoder as figures
from primer.pages import encoder_decoder as page
from primer.pages.decoder import GRAMMAR

runs = [(seed, translator.experiment(GRAMMAR, **page.TRANSLATION, seed=seed)) for seed in page.TRANSLATION_SEEDS]
print(figures.translation_scores_table(runs))

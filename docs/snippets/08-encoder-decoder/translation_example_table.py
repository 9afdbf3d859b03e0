from primer.experiments import translation
from primer.figures import encoder_decoder as figures
from primer.inputs import encoder_decoder as page
from primer.inputs.decoder import GRAMMAR

source = page.TARGET + (".",)  # chapter 7's "the cat sat on the mat", a sentence of the grammar
target, order = translation.translate(source, GRAMMAR, page.LEXICON, page.HEAD_FINAL)
print(figures.translation_example_table(source, target, order))

from primer.experiments import translator
from primer.figures import encoder_decoder as figures
from primer.figures import to_html
from primer.inputs import encoder_decoder as page
from primer.inputs.decoder import GRAMMAR

run = translator.translators(GRAMMAR, **page.TRANSLATION, seed=page.TRANSLATION_SEEDS[0])
source, target = max(run.pairs.heldout, key=lambda pair: len(pair[0]))  # the first of the longest held-out pairs
maps = [
    translator.cross_weights(enc, dec, source, target, run.pairs.vocab, run.cfg.n_heads)
    for enc, dec in ((run.enc, run.dec), run.start)
]
fig = figures.learned_alignment(source, target, run.pairs.alignments[source], *maps)
print(to_html(fig, div_id="fig-learned-alignment"))

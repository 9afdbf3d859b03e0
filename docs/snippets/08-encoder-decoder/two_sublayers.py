from primer import encoder_decoder
from primer.config import Config
from primer.figures import encoder_decoder as figures
from primer.figures import to_html
from primer.inputs import encoder_decoder as page

cfg = Config(**page.CONFIG)
enc, dec = encoder_decoder.model(cfg, page.ENC_SEED, page.DEC_SEED)  # seeded, not trained
run = encoder_decoder.teacher_forced(page.SOURCE, page.TARGET, page.VOCAB, enc, dec, cfg)
layer, row = page.LAYER, len(run["tgt"]) - 1  # first decoder layer, last decoder position
self_w = run["self"][layer].mean(axis=0)  # sub-layer 1: causal, over the decoder's own past
cross_w = run["cross"][layer].mean(axis=0)  # sub-layer 2: full rectangle, over the encoder's output
print(to_html(figures.two_sublayers(run["src"], run["tgt"], self_w, cross_w, row), div_id="fig-two-sublayers"))

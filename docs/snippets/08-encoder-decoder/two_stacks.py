from primer import encoder_decoder
from primer.config import Config
from primer.figures import encoder_decoder as figures
from primer.figures import to_html
from primer.inputs import encoder_decoder as page

cfg = Config(**page.CONFIG)
enc, dec = encoder_decoder.model(cfg, page.ENC_SEED, page.DEC_SEED)  # seeded, not trained
run = encoder_decoder.teacher_forced(
    page.SOURCE, page.TARGET, page.VOCAB, enc, dec, cfg
)  # le chat était assis sur le tapis -> <bos> the cat sat on the
enc_w = [w.mean(axis=0) for w in run["enc"]]  # per layer, averaged over heads
dec_w = [w.mean(axis=0) for w in run["self"]]
print(to_html(figures.two_stacks(run["src"], run["tgt"], enc_w, dec_w), div_id="fig-two-stacks"))

from primer import encoder_decoder
from primer.config import Config
from primer.figures import encoder_decoder as figures
from primer.figures import to_html
from primer.inputs import encoder_decoder as page

cfg = Config(**page.CONFIG)
enc, dec = encoder_decoder.model(cfg, page.ENC_SEED, page.DEC_SEED)  # seeded, not trained
run = encoder_decoder.teacher_forced(page.SOURCE, page.TARGET, page.VOCAB, enc, dec, cfg)
cross_w = [w.mean(axis=0) for w in run["cross"]]  # every layer's queries against the one memory
print(to_html(figures.shared_memory(run["src"], run["tgt"], cross_w), div_id="fig-shared-memory"))

from primer import encoder_decoder
from primer.config import Config
from primer.figures import encoder_decoder as figures
from primer.figures import to_html
from primer.inputs import encoder_decoder as page
from primer.machines import machine_masks

cfg = Config(**page.CONFIG)
enc, dec = encoder_decoder.model(cfg, page.ENC_SEED, page.DEC_SEED)  # seeded, not trained
run = encoder_decoder.teacher_forced(page.SOURCE, page.TARGET, page.VOCAB, enc, dec, cfg)
mask = machine_masks("encoder-decoder", len(run["tgt"]), len(run["src"]))[
    1
]  # the cross mask: n_target × n_source, all True
cross_w = run["cross"][page.LAYER].mean(axis=0)
print(to_html(figures.cross_rows(run["src"], run["tgt"], cross_w, mask), div_id="fig-cross-rows"))

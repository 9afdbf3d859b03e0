from primer import encdec
from primer.figures import encoder_decoder as figures
from primer.figures import to_html

run = encdec.teacher_forced()          # le chat était assis sur le tapis -> <bos> the cat sat on the
enc_w = [w.mean(axis=0) for w in run["enc"]]     # per layer, averaged over heads
dec_w = [w.mean(axis=0) for w in run["self"]]
print(to_html(figures.two_stacks(run["src"], run["tgt"], enc_w, dec_w), div_id="fig-two-stacks"))

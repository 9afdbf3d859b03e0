from primer import encdec
from primer.figures import encoder_decoder as figures
from primer.figures import to_html

run = encdec.teacher_forced()
cross_w = [w.mean(axis=0) for w in run["cross"]]  # every layer's queries against the one memory
print(to_html(figures.shared_memory(run["src"], run["tgt"], cross_w), div_id="fig-shared-memory"))

from primer import encdec
from primer.figures import encdec as figs
from primer.figures import to_html

run = encdec.teacher_forced()
mask = encdec.cross_mask_rows(len(run["tgt"]), len(run["src"]))   # n_target × n_source, all True
cross_w = run["cross"][encdec.LAYER].mean(axis=0)
print(to_html(figs.cross_rows(run["src"], run["tgt"], cross_w, mask), div_id="fig-cross-rows"))

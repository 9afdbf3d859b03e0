from primer.figures import pipeline as figs
from primer.pipeline import VOCAB, run

stages, text = run()
print(figs.stage_table(stages, VOCAB))
print(f"`{text!r}`")

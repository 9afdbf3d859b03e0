from primer.figures import sampling_pipeline as figures
from primer.pages.sampling_pipeline import VOCAB
from primer.pipeline import run

stages, text = run()
print(figures.stage_table(stages, VOCAB))
print(f"`{text!r}`")

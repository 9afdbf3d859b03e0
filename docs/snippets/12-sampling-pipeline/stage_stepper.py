from primer.decoding import temperature_softmax
from primer.figures import sampling_pipeline as figures
from primer.figures import to_html
from primer.pages.sampling_pipeline import TEMPERATURE, VOCAB
from primer.pipeline import run

stages, text = run()                        # decoder, random but seeded weights, T = 1, seed 0
probs = temperature_softmax(stages[4].array[-1], TEMPERATURE)   # stage 6 samples from the last row
fig = figures.stage_stepper(stages, probs, VOCAB, temperature=TEMPERATURE)
print(to_html(fig, div_id="fig-stage-stepper"))

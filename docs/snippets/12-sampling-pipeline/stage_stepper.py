from primer.figures import pipeline as figs, to_html
from primer.pipeline import TEMPERATURE, VOCAB, run
from primer.sampling import temperature_softmax

stages, text = run()                        # decoder, random but seeded weights, T = 1, seed 0
probs = temperature_softmax(stages[4].array[-1], TEMPERATURE)   # stage 6 samples from the last row
fig = figs.stage_stepper(stages, probs, VOCAB, temperature=TEMPERATURE)
print(to_html(fig, div_id="fig-stage-stepper"))

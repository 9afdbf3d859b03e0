from primer.decoding import temperature_softmax
from primer.figures import sampling_pipeline as figures
from primer.figures import to_html
from primer.inputs.sampling_pipeline import N_NEW, PROMPT, SAMPLE_SEED, SEED, TEMPERATURE
from primer.sampling_pipeline import VOCAB, run, shared_weights

stages, text = run(
    PROMPT, shared_weights(SEED), n_new=N_NEW, temperature=TEMPERATURE, seed=SAMPLE_SEED
)  # decoder, random but seeded weights, T = 1, seed 0
probs = temperature_softmax(stages[4].array[-1], TEMPERATURE)  # stage 6 samples from the last row
fig = figures.pipeline_stages(stages, probs, VOCAB, temperature=TEMPERATURE)
print(to_html(fig, div_id="fig-pipeline-stages"))

from primer.figures import sampling_pipeline as figures
from primer.inputs.sampling_pipeline import N_NEW, PROMPT, SAMPLE_SEED, SEED, TEMPERATURE
from primer.sampling_pipeline import VOCAB, run, shared_weights

stages, text = run(PROMPT, shared_weights(SEED), n_new=N_NEW, temperature=TEMPERATURE, seed=SAMPLE_SEED)
print(figures.pipeline_stages_table(stages, VOCAB))
print(f"`{text!r}`")

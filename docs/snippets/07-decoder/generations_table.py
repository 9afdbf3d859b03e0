from primer import writing
from primer.experiments import broken_masks
from primer.figures import decoder as figures
from primer.inputs.decoder import EXPERIMENT, WRITING

# Every model continues the same prompts with the causal mask, as generation runs: greedy, then sampled
data, cfg, runs = broken_masks.mask_runs(**EXPERIMENT)
args = (WRITING["prompts"], WRITING["n_new"], WRITING["sample_seed"], WRITING["n_samples"])
written = {name: writing.texts(run.params, cfg, data.vocab, *args) for name, run in runs.items()}
print(figures.generations_table(WRITING["prompts"], written))

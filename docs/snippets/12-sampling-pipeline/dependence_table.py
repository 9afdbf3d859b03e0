from primer.figures import sampling_pipeline as figures
from primer.inputs.sampling_pipeline import ENCODER_SEED, PROMPT, SEED, SOURCE
from primer.machines import MACHINES
from primer.sampling_pipeline import dependence, shared_weights

params = shared_weights(SEED)
deps = {name: dependence(PROMPT, name, SOURCE, params, ENCODER_SEED) for name in MACHINES}
print(figures.dependence_table(deps, PROMPT))

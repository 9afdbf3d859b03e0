from primer.figures import sampling_pipeline as figures
from primer.figures import to_html
from primer.inputs.sampling_pipeline import ENCODER_SEED, PROMPT, SEED, SOURCE
from primer.machines import MACHINES, reach
from primer.sampling_pipeline import dependence, shared_weights

masks = {name: reach(name, len(PROMPT), len(SOURCE)) for name in MACHINES}  # stage 3, the only change
params = shared_weights(SEED)
deps = {name: dependence(PROMPT, name, SOURCE, params, ENCODER_SEED) for name in MACHINES}  # measured by perturbation
fig = figures.mask_swap(masks, deps, PROMPT, SOURCE)
print(to_html(fig, div_id="fig-mask-swap"))

from primer.figures import sampling_pipeline as figures
from primer.figures import to_html
from primer.machines import MACHINES, reach
from primer.pages.sampling_pipeline import PROMPT, SOURCE
from primer.pipeline import dependence

masks = {name: reach(name, len(PROMPT), len(SOURCE)) for name in MACHINES}   # stage 3, the only change
deps = {name: dependence(PROMPT, name, SOURCE) for name in MACHINES}         # measured by perturbation
fig = figures.swap_figure(masks, deps, PROMPT, SOURCE)
print(to_html(fig, div_id="fig-mask-swap"))

from primer.figures import pipeline as figs, to_html
from primer.pipeline import MACHINES, PROMPT, SOURCE, dependence, reach

masks = {name: reach(name, len(PROMPT), len(SOURCE)) for name in MACHINES}   # stage 3, the only change
deps = {name: dependence(PROMPT, name, SOURCE) for name in MACHINES}         # measured by perturbation
fig = figs.swap_figure(masks, deps, PROMPT, SOURCE)
print(to_html(fig, div_id="fig-mask-swap"))

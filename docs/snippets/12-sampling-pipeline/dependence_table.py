from primer.figures import pipeline as figs
from primer.pipeline import MACHINES, PROMPT, SOURCE, dependence

deps = {name: dependence(PROMPT, name, SOURCE) for name in MACHINES}
print(figs.dependence_table(deps, PROMPT))

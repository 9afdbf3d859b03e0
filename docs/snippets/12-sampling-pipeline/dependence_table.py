from primer.figures import sampling_pipeline as figures
from primer.machines import MACHINES
from primer.pages.sampling_pipeline import PROMPT, SOURCE
from primer.pipeline import dependence

deps = {name: dependence(PROMPT, name, SOURCE) for name in MACHINES}
print(figures.dependence_table(deps, PROMPT))

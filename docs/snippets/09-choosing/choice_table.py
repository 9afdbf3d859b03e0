from primer.machines import OUTPUTS, architecture_for
from primer.figures import choosing as figures

print(figures.choice_table([architecture_for(output) for output in OUTPUTS]))

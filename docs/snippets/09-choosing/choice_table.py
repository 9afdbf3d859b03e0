from primer.figures import choosing as figures
from primer.machines import OUTPUTS, architecture_for

print(figures.choice_table([architecture_for(output) for output in OUTPUTS]))

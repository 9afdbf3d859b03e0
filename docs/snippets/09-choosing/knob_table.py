from primer.architectures import SOURCE, TARGET, influence
from primer.figures import choosing as figures
from primer.machines import MACHINES, masks

states = [(machine, *masks(machine, len(TARGET), len(SOURCE)), *influence(machine)) for machine in MACHINES]
print(figures.knob_table(states))

from primer.architectures import MACHINES, SOURCE, TARGET, influence, masks
from primer.figures import choosing

states = [(machine, *masks(machine, len(TARGET), len(SOURCE)), *influence(machine)) for machine in MACHINES]
print(choosing.knob_table(states))

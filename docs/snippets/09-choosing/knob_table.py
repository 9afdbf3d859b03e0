from primer.config import Config
from primer.figures import choosing as figures
from primer.inputs.choosing import SEEDS, SOURCE, TARGET
from primer.machines import MACHINES, machine_masks
from primer.probe import influence

states = [
    (machine, *machine_masks(machine, len(TARGET), len(SOURCE)), *influence(machine, TARGET, SOURCE, Config(), SEEDS))
    for machine in MACHINES
]
print(figures.knob_table(states))

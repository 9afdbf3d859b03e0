from primer.config import Config
from primer.figures import choosing as figures
from primer.figures import to_html
from primer.inputs.choosing import SEEDS, SOURCE, TARGET
from primer.machines import MACHINES, machine_masks
from primer.probe import influence

states = []
for machine in MACHINES:  # one knob, three settings, the same block
    self_mask, cross_mask = machine_masks(machine, len(TARGET), len(SOURCE))
    moved_own, moved_src = influence(
        machine, TARGET, SOURCE, Config(), SEEDS
    )  # change one token at a time and run again
    states.append((machine, self_mask, cross_mask, moved_own, moved_src))
print(to_html(figures.one_knob(states), div_id="fig-one-knob"))

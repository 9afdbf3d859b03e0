from primer.architectures import MACHINES, SOURCE, TARGET, influence, masks
from primer.figures import choosing, to_html

states = []
for machine in MACHINES:                                # one knob, three settings, the same block
    self_mask, cross_mask = masks(machine, len(TARGET), len(SOURCE))
    moved_own, moved_src = influence(machine)           # change one token at a time and run again
    states.append((machine, self_mask, cross_mask, moved_own, moved_src))
print(to_html(choosing.one_knob(states), div_id="fig-one-knob"))

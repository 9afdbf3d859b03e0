from primer.figures import choosing as figures
from primer.figures import to_html
from primer.machines import OUTPUTS, architecture_for, stack_masks

choices = [architecture_for(output) for output in OUTPUTS]  # label, span, text, translation
masks = {}
for c in choices:
    src, tgt = figures.example_tokens(c.output)
    masks[c.output] = stack_masks(c.machine, len(src), len(tgt))
print(to_html(figures.output_machine(choices, masks), div_id="fig-output-machine"))

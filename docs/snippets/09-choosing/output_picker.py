from primer.architectures import OUTPUTS, architecture_for, stack_masks
from primer.figures import choosing, to_html

choices = [architecture_for(output) for output in OUTPUTS]   # label, span, text, translation
masks = {}
for c in choices:
    src, tgt = choosing.example_tokens(c.output)
    masks[c.output] = stack_masks(c.machine, len(src), len(tgt))
print(to_html(choosing.output_picker(choices, masks), div_id="fig-output-picker"))

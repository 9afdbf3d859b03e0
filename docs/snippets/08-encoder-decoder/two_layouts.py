from primer import encdec
from primer.figures import encdec as figs
from primer.figures import to_html

mask, region = encdec.two_stack_layout(len(encdec.SOURCE), len(encdec.TARGET))
two = (list(encdec.SOURCE) + list(encdec.TARGET), mask, region)
one = encdec.prompt_layout(encdec.SOURCE, encdec.TARGET)      # French: ... English: ..., one causal mask
print(to_html(figs.layouts(two, one), div_id="fig-two-layouts"))

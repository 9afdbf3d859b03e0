from primer import encdec
from primer.pages import encoder_decoder as page
from primer.figures import encoder_decoder as figures
from primer.figures import to_html

mask, region = encdec.two_stack_layout(len(page.SOURCE), len(page.TARGET))
two = (list(page.SOURCE) + list(page.TARGET), mask, region)
one = encdec.prompt_layout(page.SOURCE, page.TARGET)      # French: ... English: ..., one causal mask
print(to_html(figures.layouts(two, one), div_id="fig-two-layouts"))

from primer import encoder_decoder
from primer.figures import encoder_decoder as figures
from primer.figures import to_html
from primer.inputs import encoder_decoder as page

mask, region = encoder_decoder.two_stack_layout(len(page.SOURCE), len(page.TARGET))
two = (list(page.SOURCE) + list(page.TARGET), mask, region)
one = encoder_decoder.prompt_layout(
    page.SOURCE, page.TARGET, (page.SOURCE_TAG, page.TARGET_TAG)
)  # French: ... English: ..., one causal mask
print(to_html(figures.two_layouts(two, one), div_id="fig-two-layouts"))

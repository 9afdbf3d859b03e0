from primer import encoder_decoder
from primer.figures import encoder_decoder as figures
from primer.inputs import encoder_decoder as page

print(
    figures.layout_table(encoder_decoder.layout_summary(page.SOURCE, page.TARGET, (page.SOURCE_TAG, page.TARGET_TAG)))
)

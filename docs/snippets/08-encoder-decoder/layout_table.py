from primer import encdec
from primer.pages import encoder_decoder as page
from primer.figures import encoder_decoder as figures

print(figures.layout_table(encdec.layout_summary(page.SOURCE, page.TARGET)))

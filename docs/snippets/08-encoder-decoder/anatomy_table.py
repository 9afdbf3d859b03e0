from primer import encdec
from primer.pages import encoder_decoder as page
from primer.figures import encoder_decoder as figures

rows = encdec.block_anatomy(page.CFG)   # weights counted from primer's own init_block
print(figures.anatomy_table(rows))

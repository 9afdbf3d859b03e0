from primer import encoder_decoder
from primer.config import Config
from primer.pages import encoder_decoder as page
from primer.figures import encoder_decoder as figures

rows = encoder_decoder.block_anatomy(Config(**page.CONFIG))   # weights counted from primer's own init_block
print(figures.anatomy_table(rows))

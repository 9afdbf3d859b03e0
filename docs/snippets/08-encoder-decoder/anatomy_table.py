from primer import encoder_decoder
from primer.config import Config
from primer.figures import encoder_decoder as figures
from primer.inputs import encoder_decoder as page

rows = encoder_decoder.block_anatomy(Config(**page.CONFIG))  # weights counted from primer's own init_block
print(figures.anatomy_table(rows))

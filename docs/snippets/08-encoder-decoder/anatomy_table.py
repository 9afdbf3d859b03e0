from primer import encdec
from primer.figures import encdec as fig

rows = encdec.block_anatomy(encdec.CFG)   # weights counted from primer's own init_block
print(fig.anatomy_table(rows))

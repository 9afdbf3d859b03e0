from primer.figures import pipeline as figs
from primer.pipeline import CFG, block_kinds

# primer's tiny shape (d = 16, 4 heads, d_ff = 32, 2 layers per stack), weights counted from the arrays
print(figs.block_kinds_table(block_kinds(CFG)))

from primer.figures import today as figures
from primer.image_prefix import block_kinds
from primer.inputs.sampling_pipeline import SEED

# primer's tiny shape (d = 16, 4 heads, d_ff = 32, 2 layers per stack), weights counted from the arrays
print(figures.block_kinds_table(block_kinds(SEED)))

from primer import mlm
from primer.figures import encoder as figures
from primer.inputs.encoder import MASKING_EXAMPLE_SEED

tokens = mlm.LONG_SENTENCE
rows, corrupted = mlm.mask_tokens(tokens, rate=0.15, seed=MASKING_EXAMPLE_SEED)  # BERT's rule; a draw with all three
print(figures.mlm_masking_table(rows, len(tokens), 0.15))
print("`" + " ".join(corrupted) + "`")

from primer import mlm
from primer.figures import encoder as figures

tokens = mlm.LONG_SENTENCE
rows, corrupted = mlm.mask_tokens(tokens, rate=0.15, seed=mlm.MASK_SEED)  # BERT's rule, fixed seed
print(figures.mlm_masking_table(rows, len(tokens), 0.15))
print("`" + " ".join(corrupted) + "`")

from primer import encdec
from primer.figures import encdec as figs

# Greedy runs of 1..6 steps; the two loops must generate the same tokens (checked inside).
rows = encdec.projection_counts(max_steps=encdec.STEPS)
print(figs.projection_table(rows))
enc, dec = encdec.model()
run = encdec.generate(encdec.ids(encdec.SOURCE), enc, dec, encdec.CFG, encdec.STEPS)
print(f"`{' '.join(encdec.SOURCE)}` → `{' '.join(encdec.words(run.tokens))}`  (n_layers = {encdec.CFG.n_layers})")

from primer import mlm
from primer.figures import encoder as figures

model = mlm.ContextCounter()
guesses = {
    sides: mlm.fill_mask(mlm.SENTENCE, mlm.MASKED_POSITION, sides, model, top=3)
    for sides in ("none", "left", "right", "both")
}
print(figures.mlm_guesses_table(guesses))

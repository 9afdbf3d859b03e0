from primer import mlm
from primer.experiments import trained_encoder
from primer.figures import encoder as figures
from primer.figures import to_html
from primer.inputs.encoder import EXPERIMENT

run = trained_encoder.trained_encoder(**EXPERIMENT)  # the encoder trained with masked-LM (seed 0 of the five)
words = [".", *mlm.SENTENCE, "."]
position = mlm.MASKED_POSITION + 1
steps = trained_encoder.walk(run, words, position)  # left only (causal mask), both sides (full mask), filled
fig = figures.mlm_walk(words, position, steps, run.vocab)
print(to_html(fig, div_id="fig-mlm-walk"))

from primer.experiments import language_model
from primer.figures import decoder as figures
from primer.inputs.decoder import EXPERIMENT

# The grammar's sentences cut in two by the seed: the training text comes from one side, the held-out from the other
grammar, seed = EXPERIMENT["grammar"], EXPERIMENT["seed"]
data = language_model.make_data(grammar, **EXPERIMENT["corpus_args"], seed=seed)
print(figures.corpus_table(grammar, data))

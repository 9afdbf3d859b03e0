from primer.experiments import trained_encoder
from primer.figures import encoder as figures
from primer.figures.tables import pct
from primer.inputs.encoder import EXPERIMENT, SEEDS

# The whole experiment once per seed: the split, the texts, the masking, the initial weights and the batches change
runs = trained_encoder.over_seeds(EXPERIMENT, SEEDS)
setup = EXPERIMENT["training"] | EXPERIMENT["masking"] | {"rate_pct": pct(EXPERIMENT["masking"]["rate"], 0)}
print(figures.encoder_accuracy_table(runs, setup))

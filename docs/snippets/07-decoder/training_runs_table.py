from primer.experiments import broken_masks
from primer.figures import decoder as figures
from primer.inputs.decoder import EXPERIMENT, SEEDS, WRITING

# The whole experiment once per seed: the split, the texts, the initial weights and the batches all change
measured, refs = broken_masks.measures(EXPERIMENT, SEEDS, **WRITING)
losses = {name: {k: m[k] for k in ("train", "val", "honest", "start", "score")} for name, m in measured.items()}
setup = EXPERIMENT["model"] | EXPERIMENT["training"] | {"n_seeds": len(SEEDS), "seed": EXPERIMENT["seed"]}
setup |= {"vocab_size": refs["vocab_size"], "n_samples": WRITING["n_samples"]}
print(figures.training_runs_table(losses, refs, setup))

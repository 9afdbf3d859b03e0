from primer.experiments.packed_training import packed_runs
from primer.figures import packing as figures
from primer.inputs.decoder import CORPUS, GRAMMAR, MODEL, SEEDS, TRAINING
from primer.inputs.packing import FIRST

# chapter 7's five causal runs, and five more from the same weights on the same batches under the document mask
runs = packed_runs(GRAMMAR, model=MODEL, corpus_args=CORPUS, training=TRAINING, seeds=SEEDS, first=FIRST)
print(figures.packed_runs_table(runs, FIRST))

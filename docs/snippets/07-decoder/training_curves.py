from primer import broken_masks
from primer.figures import decoder as figures
from primer.figures import to_html
from primer.pages.decoder import CORPUS, GRAMMAR, MODEL, TRAINING

# One model, the same initial weights and batches, trained five times: once per mask
data, cfg, runs = broken_masks.experiment(GRAMMAR, model=MODEL, corpus_args=CORPUS, **TRAINING)
histories = {name: run.history for name, run in runs.items()}  # training loss per step, under the run's own mask
heldout = {name: run.heldout_loss for name, run in runs.items()}  # the trained model on held-out rows, causal mask
print(to_html(figures.training_curves(histories, heldout), div_id="fig-training-curves"))

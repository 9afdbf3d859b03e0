from primer.experiments import broken_masks
from primer.figures import decoder as figures
from primer.figures import to_html
from primer.inputs.decoder import EXPERIMENT

# One model, the same initial weights and batches, trained six times: once per mask (one seed of the five)
data, cfg, runs = broken_masks.mask_runs(**EXPERIMENT)
histories = {name: run.history for name, run in runs.items()}  # training loss per step, under the run's own mask
honest = {name: run.curve for name, run in runs.items()}  # held-out rows under the causal mask, every few steps
steps = runs["causal"].curve_steps
# Each panel's floor is its rows' own: the training side's entropy on top, the whole grammar's below
fig = figures.training_curves(histories, honest, steps, data.train_floor, data.floor, data.chance)
print(to_html(fig, div_id="fig-training-curves"))

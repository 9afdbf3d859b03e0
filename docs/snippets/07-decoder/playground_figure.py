from primer.experiments import broken_masks
from primer.figures import decoder as figures
from primer.figures import to_html
from primer.inputs.decoder import EXPERIMENT

# The page's causal run, the one the program above repeats; the reader's own run is drawn over it as it trains
data, cfg, runs = broken_masks.mask_runs(**EXPERIMENT)
causal = runs["causal"]
fig = figures.playground(causal.history, causal.curve, causal.curve_steps, data.train_floor, data.floor, data.chance)
print(to_html(fig, div_id="fig-playground"))

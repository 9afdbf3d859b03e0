from primer.figures import long_context as figures
from primer.figures import to_html
from primer.inputs.long_context import MAX_LAYERS, N_REACH, PATTERNS, WINDOW_REACH
from primer.layer_patterns import interleaved_kinds, layer_masks, reachable

reaches = {}
for name, local_per_global in PATTERNS.items():
    kinds = interleaved_kinds(MAX_LAYERS, local_per_global)  # "local" or "global", first layer first
    masks = layer_masks(N_REACH, kinds, WINDOW_REACH)  # one [n, n] mask per layer
    reaches[name] = [reachable(masks[:depth]) for depth in range(1, MAX_LAYERS + 1)]  # the product of the first L
print(to_html(figures.reach_layers(reaches), div_id="fig-reach-layers"))

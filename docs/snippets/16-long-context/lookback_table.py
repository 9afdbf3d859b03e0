from primer.figures import long_context as figures
from primer.inputs.long_context import MAX_LAYERS, N_REACH, PATTERNS, WINDOW_REACH
from primer.layer_patterns import interleaved_kinds, layer_masks, lookback, reachable

lookbacks = {}
for name, local_per_global in PATTERNS.items():
    masks = layer_masks(N_REACH, interleaved_kinds(MAX_LAYERS, local_per_global), WINDOW_REACH)
    lookbacks[name] = [int(lookback(reachable(masks[:depth]))[-1]) for depth in range(1, MAX_LAYERS + 1)]
print(figures.lookback_table(lookbacks))  # how far back the last of N_REACH outputs reaches

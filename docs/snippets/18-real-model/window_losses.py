from primer.figures import real_model as figures
from primer.inputs.real_model import N_TOKENS, PASSAGE, SCORED_FROM, SINKS, WINDOWS
from primer.pretrained import measure

# window_mask(n, w) and window_mask(n, w, sinks=SINKS) from primer.masks, passed as the model's mask
losses = measure.window_losses(PASSAGE, N_TOKENS, WINDOWS, SINKS, SCORED_FROM)
print(figures.window_table(losses, WINDOWS, SINKS))

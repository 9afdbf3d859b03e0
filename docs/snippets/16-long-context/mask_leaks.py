from primer.experiments.trained_decoder import trained_decoder
from primer.figures import mask_kit as figures
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.long_context import KIT_CHUNK, KIT_D, KIT_N, KIT_SEED, KIT_SINKS, KIT_WINDOW
from primer.leak import LeakProbes
from primer.masks import chunked_mask, window_mask

data, cfg, run = trained_decoder(**EXPERIMENT)  # chapter 7's decoder, the start of its first held-out row
tokens = data.heldout_tokens[0][:KIT_N]
probe = LeakProbes(run.params, cfg, d=KIT_D, seed=KIT_SEED)  # the decoder under a mask, its layers' reach, one head

sinks = window_mask(KIT_N, KIT_WINDOW, sinks=KIT_SINKS)
chunks = chunked_mask(KIT_N, KIT_CHUNK)
cases = [  # (case, the mask the model should follow, the mask it is run under)
    ("window_sinks", sinks, sinks),
    ("window_no_sinks", sinks, window_mask(KIT_N, KIT_WINDOW)),
    ("chunked", chunks, chunks),
    ("chunked_as_window", chunks, window_mask(KIT_N, KIT_CHUNK)),
]
rows = [probe.row(case, tokens, meant, used) for case, meant, used in cases]
print(figures.mask_leak_table(rows))

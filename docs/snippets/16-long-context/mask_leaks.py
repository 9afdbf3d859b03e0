import numpy as np

from primer.attention import attention
from primer.experiments.trained_decoder import trained_decoder
from primer.figures import mask_kit as figures
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.long_context import KIT_CHUNK, KIT_D, KIT_N, KIT_SEED, KIT_SINKS, KIT_WINDOW
from primer.layer_patterns import reachable
from primer.leak import token_reads
from primer.mask_checks import check_mask
from primer.masks import chunked_mask, window_mask
from primer.transformer import embed, logits, stack

data, cfg, run = trained_decoder(**EXPERIMENT)  # chapter 7's decoder, the start of its first held-out row
tokens = data.heldout_tokens[0][:KIT_N]
rng = np.random.default_rng(KIT_SEED)
w_q, w_k, w_v = (rng.standard_normal((KIT_D, KIT_D)) / np.sqrt(KIT_D) for _ in range(3))  # one head, initial scale


def read(mask):  # the trained decoder under mask: token ids [n] -> logits [n, vocab]
    return lambda t: logits(stack(embed(t, run.params, cfg), run.params, cfg, mask)[0], run.params)


def reach(mask):  # what the decoder's outputs may depend on through its cfg.n_layers layers under mask
    return reachable([mask] * cfg.n_layers)


def head(mask):  # one attention head under mask: x [n, KIT_D] -> y [n, KIT_D]
    return lambda x: attention(x @ w_q, x @ w_k, x @ w_v, mask)[0]


sinks = window_mask(KIT_N, KIT_WINDOW, sinks=KIT_SINKS)
chunks = chunked_mask(KIT_N, KIT_CHUNK)
cases = [  # (case, the mask the model should follow, the mask it is run under)
    ("window_sinks", sinks, sinks),
    ("window_no_sinks", sinks, window_mask(KIT_N, KIT_WINDOW)),
    ("chunked", chunks, chunks),
    ("chunked_as_window", chunks, window_mask(KIT_N, KIT_CHUNK)),
]
rows = [
    (case, token_reads(read(used), tokens, cfg.vocab_size), reach(meant), check_mask(head(used), meant, d=KIT_D))
    for case, meant, used in cases
]
print(figures.mask_leak_table(rows))

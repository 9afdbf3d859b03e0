import numpy as np

from primer.attention import attention
from primer.chunked_prefill import chunked_prefill, prefill_mask
from primer.experiments.trained_decoder import trained_decoder
from primer.figures import mask_kit as figures
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.serving import KIT_CHUNK, KIT_D, KIT_N, KIT_PARENTS, KIT_PREFIX, KIT_SEED
from primer.layer_patterns import reachable
from primer.leak import token_reads
from primer.mask_checks import check_mask
from primer.masks import causal_mask
from primer.speculative import tree_pass_mask
from primer.transformer import embed, logits, stack

data, cfg, run = trained_decoder(**EXPERIMENT)  # chapter 7's decoder and the start of its first held-out row
row = data.heldout_tokens[0]
rng = np.random.default_rng(KIT_SEED)
w_q, w_k, w_v = (rng.standard_normal((KIT_D, KIT_D)) / np.sqrt(KIT_D) for _ in range(3))  # one head, initial scale


def read(mask):  # the trained decoder under mask: token ids [n] -> logits [n, vocab]
    return lambda t: logits(stack(embed(t, run.params, cfg), run.params, cfg, mask)[0], run.params)


def reach(mask):  # what the decoder's outputs may depend on through its cfg.n_layers layers under mask
    return reachable([mask] * cfg.n_layers)


def head(mask):  # one attention head under mask: x [n, KIT_D] -> y [n, KIT_D]
    return lambda x: attention(x @ w_q, x @ w_k, x @ w_v, mask)[0]


def prefilled(alignment):  # the same head, the prompt prefilled in chunks of KIT_CHUNK
    return lambda x: chunked_prefill(x @ w_q, x @ w_k, x @ w_v, KIT_CHUNK, alignment=alignment)


tree = tree_pass_mask(KIT_PREFIX, KIT_PARENTS)  # the prefix causal, each draft node its ancestors
n_tree, causal = len(tree), causal_mask(KIT_N)
rows = [
    ("tree", token_reads(read(tree), row[:n_tree], cfg.vocab_size), reach(tree), check_mask(head(tree), tree, d=KIT_D)),
    (
        "tree_as_causal",
        token_reads(read(causal_mask(n_tree)), row[:n_tree], cfg.vocab_size),
        reach(tree),
        check_mask(head(causal_mask(n_tree)), tree, d=KIT_D),
    ),
]
for alignment in ("bottom_right", "top_left"):  # what the chunks read, against one causal pass
    reads = token_reads(read(prefill_mask(KIT_N, KIT_CHUNK, alignment)), row[:KIT_N], cfg.vocab_size)
    rows.append((f"prefill_{alignment}", reads, reach(causal), check_mask(prefilled(alignment), causal, d=KIT_D)))
print(figures.mask_leak_table(rows))

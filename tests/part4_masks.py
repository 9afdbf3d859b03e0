"""Part IV's masks as chapters 15-17 check them (each chapter's `mask_leaks.py` snippet): each chapter's cases, the
mask meant and the mask a layer runs under, recomputed for the page tests and the two kits' agreement."""

import numpy as np

from primer.attention import attention
from primer.chunked_prefill import chunked_prefill, prefill_mask
from primer.experiments.packed_training import row_doc_ids
from primer.experiments.trained_decoder import trained_decoder
from primer.inputs import long_context, packing, serving
from primer.inputs.decoder import EXPERIMENT
from primer.layer_patterns import reachable
from primer.leak import token_reads
from primer.mask_checks import check_mask
from primer.masks import causal_mask, chunked_mask, document_mask, prefix_lm_mask, window_mask
from primer.speculative import tree_pass_mask
from primer.transformer import embed, logits, stack

CLEAN = {"document", "prefix", "window_sinks", "chunked", "tree", "prefill_bottom_right"}  # the rest are planted bugs
BUG_KINDS = {  # what the kit must report on each planted bug
    "document_as_causal": {"leak", "suspect"},
    "prefix_as_causal": {"blind", "suspect"},
    "window_no_sinks": {"blind"},
    "chunked_as_window": {"leak"},
    "tree_as_causal": {"leak", "suspect"},
    "prefill_top_left": {"blind"},
}


def heads(seed, d):  # -> w_q, w_k, w_v: one head at an initial scale, as the snippets draw it
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3)]


def cases(chapter):  # -> (tokens, seed, d, [(case, meant [n, n], used [n, n] or ("prefill", alignment))])
    """Return a chapter's leak-test row of tokens, its head's seed and width, and its cases."""
    data, _, _ = trained_decoder(**EXPERIMENT)
    if chapter == 15:
        tokens = data.heldout_tokens[packing.HELD_OUT_ROW]
        n = tokens.size
        documents = document_mask(row_doc_ids(tokens[None], data.vocab.index("."))[0])
        prefix = prefix_lm_mask(n, packing.PREFIX)
        found = [
            ("document", documents, documents),
            ("document_as_causal", documents, causal_mask(n)),
            ("prefix", prefix, prefix),
            ("prefix_as_causal", prefix, causal_mask(n)),
        ]
        return tokens, packing.KIT_SEED, packing.KIT_D, found
    if chapter == 16:
        c = long_context
        sinks, chunks = window_mask(c.KIT_N, c.KIT_WINDOW, sinks=c.KIT_SINKS), chunked_mask(c.KIT_N, c.KIT_CHUNK)
        found = [
            ("window_sinks", sinks, sinks),
            ("window_no_sinks", sinks, window_mask(c.KIT_N, c.KIT_WINDOW)),
            ("chunked", chunks, chunks),
            ("chunked_as_window", chunks, window_mask(c.KIT_N, c.KIT_CHUNK)),
        ]
        return data.heldout_tokens[0][: c.KIT_N], c.KIT_SEED, c.KIT_D, found
    s = serving
    tree = tree_pass_mask(s.KIT_PREFIX, s.KIT_PARENTS)
    found = [
        ("tree", tree, tree),
        ("tree_as_causal", tree, causal_mask(len(tree))),
        ("prefill_bottom_right", causal_mask(s.KIT_N), ("prefill", "bottom_right")),
        ("prefill_top_left", causal_mask(s.KIT_N), ("prefill", "top_left")),
    ]
    return data.heldout_tokens[0], s.KIT_SEED, s.KIT_D, found


def numpy_layer(used, w, chunk=serving.KIT_CHUNK):  # x [n, d] -> y [n, d]: one head under used (or prefilled)
    w_q, w_k, w_v = w
    if isinstance(used, tuple):
        return lambda x: chunked_prefill(x @ w_q, x @ w_k, x @ w_v, chunk, alignment=used[1])
    return lambda x: attention(x @ w_q, x @ w_k, x @ w_v, used)[0]


def leak_rows(chapter):  # -> [(case, reads, reach of the meant mask, problems)]: the page's table, recomputed
    """Return the rows of a chapter's leak-test table as its snippet computes them."""
    data, cfg, run = trained_decoder(**EXPERIMENT)
    tokens, seed, d, found = cases(chapter)
    w = heads(seed, d)
    rows = []
    for case, meant, used in found:
        n = len(meant)
        mask = prefill_mask(n, serving.KIT_CHUNK, used[1]) if isinstance(used, tuple) else used

        def read(t, mask=mask):
            return logits(stack(embed(t, run.params, cfg), run.params, cfg, mask)[0], run.params)

        reads = token_reads(read, tokens[:n], cfg.vocab_size)
        rows.append((case, reads, reachable([meant] * cfg.n_layers), check_mask(numpy_layer(used, w), meant, d=d)))
    return rows

"""The check kit's cases: correct attention and decoders under each mask, and each planted mask bug with its kinds.

Shared by tests/test_mask_checks.py (primer's kit) and tests/test_mask_checks_torch.py (its PyTorch twin).
"""

import numpy as np

from primer.attention import attention
from primer.config import Config
from primer.kv_cache import KVCache, decode_step
from primer.machines import machine_masks
from primer.masks import (
    additive_mask,
    batch_mask,
    causal_mask,
    chunked_mask,
    document_mask,
    prefix_lm_mask,
    tree_mask,
    window_mask,
)
from primer.position import sinusoidal_encoding
from primer.transformer import init_stack, stack

CFG = Config()  # the tiny decoder: d_model 16, 4 heads, 2 layers
PARAMS = init_stack(0, CFG)
D = 4  # the width of the single-head attentions below


def weights(d, seed=1):  # -> w_q, w_k, w_v, each [d, d]
    """Random projections at an initial scale, 1/sqrt(d), as a fresh model's (see check_causal's docstring)."""
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3)]


def masked_attention(x, mask, w=None):  # [n, d], [n, n] bool -> [n, d]
    """primer's attention with primer's mask meaning (True: query i may read key j)."""
    w_q, w_k, w_v = w or weights(x.shape[1])
    return attention(x @ w_q, x @ w_k, x @ w_v, mask)[0]


def added_attention(x, added):  # [n, d], [n, n] float -> [n, d]
    """Attention as hand-written code spells it: softmax(q k^T / sqrt(d) + added) v, no checks."""
    w_q, w_k, w_v = weights(x.shape[1])
    scores = (x @ w_q) @ (x @ w_k).T / np.sqrt(x.shape[1]) + added
    with np.errstate(invalid="ignore"):  # a row of -inf only is 0/0: the NaN is the point
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True) @ (x @ w_v)


def closed(mask):  # bool -> float: 0 where open, -inf where closed
    return additive_mask(mask)


# ---- planted bugs and correct implementations --------------------------------------------------------------------

CAUSAL_BUGS = {  # name -> (f, the kinds the kit must report)
    "added_0": (lambda x: added_attention(x, additive_mask(causal_mask(len(x)), 0.0)), {"suspect", "future"}),
    "triu_for_tril": (
        lambda x: added_attention(x, closed(np.triu(np.ones((len(x),) * 2, bool)))),
        {"suspect", "future", "blind"},
    ),
    "transposed": (lambda x: added_attention(x, closed(causal_mask(len(x)).T)), {"suspect", "future", "blind"}),
    "inverted": (
        lambda x: added_attention(x, np.where(causal_mask(len(x)), -1e9, 0.0)),
        {"suspect", "future", "blind"},
    ),
    "inverted_inf": (lambda x: added_attention(x, closed(~causal_mask(len(x)))), {"not_finite"}),
    "diagonal_closed": (lambda x: added_attention(x, closed(np.tri(len(x), k=-1, dtype=bool))), {"not_finite"}),
    "one_key_too_many": (lambda x: added_attention(x, closed(np.tri(len(x), k=1, dtype=bool))), {"suspect", "future"}),
    "window_2": (lambda x: masked_attention(x, window_mask(len(x), 2)), {"suspect", "blind"}),
    "no_mask": (lambda x: masked_attention(x, None), {"suspect", "future"}),
}
SUSPECTS = {  # name -> the start of the suspect sentence, the first problem
    "added_0": "every output moves with every input: the mask closes nothing",
    "no_mask": "every output moves with every input: the mask closes nothing",
    "triu_for_tril": "the outputs follow the mask transposed",
    "transposed": "the outputs follow the mask transposed",
    "inverted": "the outputs follow the mask inverted",
    "one_key_too_many": "y[j-1] moves with x[j] for every j: the mask opens one key too many (off by one)",
    "window_2": "the outputs follow a sliding window of 2 keys",
}


def decoder(x):  # [n, 16] -> [n, 16]
    """primer's decoder stack on rows that are already embedded."""
    return stack(x, PARAMS, CFG, causal_mask(len(x)))[0]


def decoder_step():
    """A fresh cached decoder: each call runs one new row through the stack, reading the cached K/V."""
    cache = KVCache(CFG)

    def step(x_t):  # [16] -> [16]
        return stack(x_t[None], PARAMS, CFG, machine_masks("decoder", 1, past=cache.length)[0], cache=cache)[0][0]

    return step


def head_step():
    """primer.kv_cache.decode_step: one head, its K/V rows kept between calls."""
    w_q, w_k, w_v = weights(D)
    kv = [np.zeros((0, D)), np.zeros((0, D))]

    def step(x_t):  # [D] -> [D]
        y_t, kv[0], kv[1] = decode_step(x_t, kv[0], kv[1], w_q, w_k, w_v)
        return y_t

    return step


def padded_decoder(x, valid, bug=None):  # [n, 16], [n] -> [n, 16]
    """primer's decoder under its batch mask, padded on valid's side: causal AND real keys, a pad reads only itself.

    bug "query_axis": the padding mask on the query axis, filled with -1e4 as hand-written code does; "dropped": the
    padding mask computed and never applied, as masked_fill without its underscore.
    """
    side = "left" if not valid[0] else "right"
    mask = batch_mask([int(valid.sum())], len(x), causal=True, side=side)[0]
    if bug == "query_axis":  # causal AND valid[:, None] under -1e4: a padded query's row, all -1e4, reads every key
        mask = np.where(valid[:, None], causal_mask(len(x)), True)
    if bug == "dropped":
        mask = causal_mask(len(x))
    return stack(x, PARAMS, CFG, mask)[0]


PADDING_BUGS = {  # name -> (f, the kinds the kit must report)
    "query_axis": (
        lambda x, valid: added_attention(x, closed(np.repeat(valid[:, None], len(x), 1))),
        {"not_finite", "padding", "more_padding", "alone"},
    ),
    "padded_rows_masked_whole": (
        lambda x, valid: added_attention(x, closed(valid[:, None] & valid[None, :])),
        {"not_finite"},
    ),
    "no_padding_mask": (lambda x, valid: masked_attention(x, None), {"padding", "more_padding", "alone"}),
    "added_0": (
        lambda x, valid: added_attention(x, additive_mask(np.tile(valid, (len(x), 1)), 0.0)),
        {"padding", "more_padding", "alone"},
    ),
}


N = 8
MASKS = {  # the masks a layer may be built for, each [N, N] with True: may read
    "causal": causal_mask(N),
    "window_sinks": window_mask(N, 3, sinks=1),
    "chunked": chunked_mask(N, 3),
    "document": document_mask([0, 0, 0, 1, 1, 2, 2, 2]),
    "prefix_lm": prefix_lm_mask(N, 3),
    "tree": tree_mask([-1, 0, 0, 1, 1, 2, 2, 0]),
}


def one_more_key(mask):  # [n, n] -> [n, n]: the closed key just before an open one, opened too (an off-by-one)
    more = mask.copy()
    more[:, :-1] |= mask[:, 1:] & ~mask[:, :-1] & np.tri(len(mask), dtype=bool)[:, :-1]
    return more


DECODER_PADDING = {  # primer's decoder (d = CFG.d_model) padded on either side -> the kinds the kit must report
    "correct": (padded_decoder, set()),
    # The bugs show only with the padding on the left: a causal row never reaches a pad after it
    "query_axis": (lambda x, valid: padded_decoder(x, valid, "query_axis"), {"padding", "more_padding", "alone"}),
    "dropped": (lambda x, valid: padded_decoder(x, valid, "dropped"), {"padding", "more_padding", "alone"}),
}


def reach(mask, layers):  # [n, n] -> [n, n]: what y[i] of a stack of layers, each under mask, depends on
    out = mask
    for _ in range(layers - 1):
        out = (out.astype(int) @ mask.astype(int)) > 0  # y[i] reads h[j] (out), h[j] reads x[k] (mask)
    return out


def positioned(x):  # [n, D] -> [n, D]
    """Causal attention over rows with sinusoidal positions added: what the cache bugs below must reproduce."""
    return masked_attention(x + sinusoidal_encoding(len(x), D), causal_mask(len(x)))


def cache_step(bug):
    """A factory of cached decoders of `positioned`, with one slip (or none)."""
    w_q, w_k, w_v = weights(D)

    def fresh():
        rows = []  # every row so far, with its position added: K and V are projected from them

        def step(x_t):  # [D] -> [D]
            t = len(rows)
            rows.append(x_t + sinusoidal_encoding(t + 1, D)[0 if bug == "position_0" else t])  # slip: always at 0
            seen = np.array(rows)
            open_keys = np.ones(t + 1, bool)  # the new row reads every cached key and itself
            if bug == "top_left":  # is_causal on one query against t + 1 keys aligns top-left: key 0 only
                open_keys = np.arange(t + 1) == 0
            if bug == "no_append":  # only the new row's own key: the cache is never read
                open_keys = np.arange(t + 1) == t
            return attention(seen[-1:] @ w_q, seen @ w_k, seen @ w_v, open_keys[None])[0][0]

        return step

    return fresh


def cache_window(window):  # a fresh cached decoder whose cache keeps the window most recent rows
    w_q, w_k, w_v = weights(D)
    rows = []

    def one(x_t):  # [D] -> [D]
        rows.append(x_t)
        kept = np.array(rows[-window:])
        return attention(x_t[None] @ w_q, kept @ w_k, kept @ w_v, None)[0][0]

    return one

"""The check kit's cases: correct attention and decoders, and each planted mask bug with the kinds the kit must report.

Shared by tests/test_mask_checks.py (primer's kit) and tests/test_mask_checks_torch.py (its PyTorch twin).
"""

import numpy as np

from primer.attention import attention
from primer.config import Config
from primer.kv_cache import KVCache, decode_step
from primer.machines import machine_masks
from primer.masks import additive_mask, batch_mask, causal_mask, window_mask
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
    "added_0": (lambda x: added_attention(x, additive_mask(causal_mask(len(x)), 0.0)), {"future"}),
    "triu_for_tril": (lambda x: added_attention(x, closed(np.triu(np.ones((len(x),) * 2, bool)))), {"future", "blind"}),
    "transposed": (lambda x: added_attention(x, closed(causal_mask(len(x)).T)), {"future", "blind"}),
    "inverted": (lambda x: added_attention(x, np.where(causal_mask(len(x)), -1e9, 0.0)), {"future", "blind"}),
    "inverted_inf": (lambda x: added_attention(x, closed(~causal_mask(len(x)))), {"not_finite"}),
    "diagonal_closed": (lambda x: added_attention(x, closed(np.tri(len(x), k=-1, dtype=bool))), {"not_finite"}),
    "window_2": (lambda x: masked_attention(x, window_mask(len(x), 2)), {"blind"}),
    "no_mask": (lambda x: masked_attention(x, None), {"future"}),
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


def padded_decoder(x, valid):  # [n, 16], [n] -> [n, 16]
    """primer's decoder under its batch mask: causal AND real keys, a padded query reads only itself."""
    return stack(x, PARAMS, CFG, batch_mask([int(valid.sum())], len(x), causal=True)[0])[0]


PADDING_BUGS = {  # name -> (f, the kinds the kit must report)
    "query_axis": (
        lambda x, valid: added_attention(x, closed(np.repeat(valid[:, None], len(x), 1))),
        {"not_finite", "padding", "more_padding"},
    ),
    "padded_rows_masked_whole": (
        lambda x, valid: added_attention(x, closed(valid[:, None] & valid[None, :])),
        {"not_finite"},
    ),
    "no_padding_mask": (lambda x, valid: masked_attention(x, None), {"padding", "more_padding"}),
    "added_0": (
        lambda x, valid: added_attention(x, additive_mask(np.tile(valid, (len(x), 1)), 0.0)),
        {"padding", "more_padding"},
    ),
}


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

"""Softmax over the last axis, with and without a mask."""

import numpy as np

from primer._checks import bool_mask, float_array
from primer.masks import additive_mask


def softmax(x):  # [..., n] -> [..., n]
    """Return the softmax over the last axis, shifted by the row max so large scores never overflow."""
    x = float_array("x", x)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def masked_softmax(scores, mask=None, *, fill=-np.inf):  # [..., n_q, n_k], [..., n_q, n_k] -> [..., n_q, n_k]
    """Return softmax(scores + additive_mask(mask, fill)) over the last axis.

    fill=0.0 reproduces the classic bug: the closed key keeps its score. With fill=-inf a row
    with no open key raises ValueError instead of returning NaN.
    """
    scores = float_array("scores", scores)
    if mask is None:
        return softmax(scores)
    mask = bool_mask("mask", mask, scores.shape)
    if np.isneginf(fill) and not np.all(np.broadcast_to(mask, scores.shape).any(axis=-1)):
        raise ValueError("mask leaves a row with no open key; under -inf its softmax is 0/0 (NaN)")
    z = scores + additive_mask(mask, fill)
    e = np.exp(z - z.max(axis=-1, keepdims=True))  # exp(-inf) = 0 exactly: closed keys get weight 0
    return e / e.sum(axis=-1, keepdims=True)

"""Softmax over the last axis, with and without a mask."""

import numpy as np

from primer._checks import bool_mask, float_array
from primer.masks import additive_mask


def softmax(x):  # [..., n] -> [..., n]
    """Return the softmax over the last axis, shifted by the row max so large scores never overflow."""
    x = float_array("x", x)
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def masked_softmax(
    scores, mask=None, *, fill=-np.inf, replace=False
):  # [..., n_q, n_k], [..., n_q, n_k] -> [..., n_q, n_k]
    """Return softmax(scores + additive_mask(mask, fill)) over the last axis.

    fill=0.0 reproduces the classic bug: the closed key keeps its score. replace=True puts fill in
    place of a closed key's score instead of adding it (torch's masked_fill); with fill=0.0 that is
    a second bug, the closed key scoring 0. Under fill=-inf both ways agree. With fill=-inf a row
    with no open key raises ValueError instead of returning NaN.
    """
    scores = float_array("scores", scores)
    if not isinstance(replace, (bool, np.bool_)):
        raise ValueError(
            f"replace must be True or False (put fill in place of a closed score, or add it), got {replace!r}"
        )
    if mask is None:
        return softmax(scores)
    mask = bool_mask("mask", mask, scores.shape)
    if np.isneginf(fill) and not np.all(np.broadcast_to(mask, scores.shape).any(axis=-1)):
        raise ValueError("mask leaves a row with no open key; under -inf its softmax is 0/0 (NaN)")
    added = additive_mask(mask, fill)
    z = np.where(mask, scores, added) if replace else scores + added
    e = np.exp(z - z.max(axis=-1, keepdims=True))  # exp(-inf) = 0 exactly: closed keys get weight 0
    return e / e.sum(axis=-1, keepdims=True)

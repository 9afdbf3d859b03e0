"""Scaled dot-product attention: the one operation every block in this primer shares."""

import numpy as np

from primer._checks import bool_mask, float_array
from primer.softmax import masked_softmax


def attention(
    q, k, v, mask=None
):  # [..., n_q, d_k], [..., n_k, d_k], [..., n_k, d_v], [..., n_q, n_k] -> ([..., n_q, d_v], [..., n_q, n_k])
    """Return (output, weights) of softmax(q k^T / sqrt(d_k) + mask) v; leading axes broadcast."""
    q = float_array("q", q, min_ndim=2)
    k = float_array("k", k, min_ndim=2)
    v = float_array("v", v, min_ndim=2)
    if q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q and k must share d_k (last axis), got q {q.shape} and k {k.shape}")
    if k.shape[-2] != v.shape[-2]:
        raise ValueError(f"k and v must have the same number of keys n_k (axis -2), got k {k.shape} and v {v.shape}")
    try:
        lead = np.broadcast_shapes(q.shape[:-2], k.shape[:-2], v.shape[:-2])
    except ValueError:
        raise ValueError(
            f"leading (batch/head) axes of q {q.shape}, k {k.shape}, v {v.shape} do not broadcast"
        ) from None
    scores = q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])  # [..., n_q, n_k]
    scores = np.broadcast_to(scores, lead + scores.shape[-2:])
    if mask is not None:
        mask = bool_mask("mask", mask, scores.shape)
    weights = masked_softmax(scores, mask)
    return weights @ v, weights

"""Attention sinks as a learned logit: one extra column in each head's softmax, dropped after it (gpt-oss).

The sink column is always open and its value is thrown away, so a head can give a query's weight to nothing:
the row's weights over the real keys sum to less than 1, and a row with no open key outputs zeros instead of 0/0.
StreamingLLM's sinks are keys kept in the window instead: window_mask(n, window, sinks=s).
"""

import numpy as np

from primer._checks import bool_mask, float_array


def sink_softmax(scores, sink_logit, mask=None):  # [..., n_q, n_k], [...] -> [..., n_q, n_k]
    """Return softmax over [scores | sink_logit] per row, the sink's column dropped: each row sums to less than 1.

    sink_logit holds one logit per leading index (one per head for scores [h, n_q, n_k]); it broadcasts.
    """
    scores = float_array("scores", scores, min_ndim=2)
    sink = float_array("sink_logit", sink_logit, min_ndim=0)
    try:
        sink = np.broadcast_to(sink[..., None, None], scores.shape[:-1] + (1,))
    except ValueError:
        raise ValueError(
            f"sink_logit must broadcast to the leading axes {scores.shape[:-2]} (one per head), got {sink.shape}"
        ) from None
    if mask is not None:
        mask = bool_mask("mask", mask, scores.shape)
        scores = np.where(mask, scores, -np.inf)  # a closed key: exp(-inf) = 0
    z = np.concatenate([scores, sink], axis=-1)
    e = np.exp(z - z.max(axis=-1, keepdims=True))  # the sink is finite, so every row has a finite max
    return (e / e.sum(axis=-1, keepdims=True))[..., :-1]


def sink_attention(
    q, k, v, sink_logit, mask=None
):  # [..., n_q, d_k], [..., n_k, d_k], [..., n_k, d_v], [...] -> ([..., n_q, d_v], [..., n_q, n_k])
    """Return (output, weights) of attention whose softmax has a sink column per head, as gpt-oss computes it."""
    q, k, v = float_array("q", q, min_ndim=2), float_array("k", k, min_ndim=2), float_array("v", v, min_ndim=2)
    if q.shape[-1] != k.shape[-1] or k.shape[-2] != v.shape[-2]:
        raise ValueError(f"q, k and v must share d_k and n_k, got q {q.shape}, k {k.shape}, v {v.shape}")
    weights = sink_softmax(q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1]), sink_logit, mask)
    return weights @ v, weights

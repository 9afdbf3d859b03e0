"""Multi-head attention: split the projections into heads, attend in each, merge; hand-set heads, one relation each."""

import numpy as np

from primer._checks import float_array, positive_int
from primer.attention import attention


def split_heads(x, n_heads):  # [..., n, h * d_h] -> [..., h, n, d_h]
    """Cut the last axis into n_heads equal slices and move the head axis in front of the positions."""
    x = float_array("x", x, min_ndim=2)
    n_heads = positive_int("n_heads", n_heads)
    width = x.shape[-1]
    if width % n_heads:
        raise ValueError(f"n_heads must divide the last axis of x, got width {width} and n_heads {n_heads}")
    x = x.reshape(x.shape[:-1] + (n_heads, width // n_heads))
    return np.swapaxes(x, -2, -3)


def merge_heads(x):  # [..., h, n, d_h] -> [..., n, h * d_h]
    """Undo split_heads: put the heads side by side again on the last axis."""
    x = float_array("x", x, min_ndim=3)
    x = np.swapaxes(x, -2, -3)
    return x.reshape(x.shape[:-2] + (x.shape[-2] * x.shape[-1],))


def _projection(name, w, d_in):
    w = float_array(name, w, min_ndim=2)
    if w.ndim != 2 or w.shape[0] != d_in:
        raise ValueError(f"{name} must have shape [{d_in}, width], got {w.shape}")
    return w


def multi_head_attention(
    x_q, x_kv, w_q, w_k, w_v, w_o, n_heads, mask=None
):  # [n_q, d], [n_k, d], [d, h*d_k] x2, [d, h*d_v], [h*d_v, d_out], h, [n_q, n_k] -> ([n_q, d_out], [h, n_q, n_k])
    """Return (output, per-head weights): project, split into heads, attend in each head, merge, project out.

    x_q is x_kv for self-attention; for cross-attention the queries come from another sequence.
    w_o=None leaves the merged heads unprojected.
    """
    x_q = float_array("x_q", x_q, min_ndim=2)
    x_kv = float_array("x_kv", x_kv, min_ndim=2)
    if x_q.ndim != 2 or x_kv.ndim != 2:
        raise ValueError(f"x_q and x_kv must have shape [n, d], got {x_q.shape} and {x_kv.shape}")
    if x_q.shape[1] != x_kv.shape[1]:
        raise ValueError(f"x_q and x_kv must share the model width d, got {x_q.shape} and {x_kv.shape}")
    d = x_q.shape[1]
    w_q, w_k, w_v = (_projection(nm, w, d) for nm, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)))
    if w_q.shape != w_k.shape:
        raise ValueError(f"w_q and w_k must have the same shape, got {w_q.shape} and {w_k.shape}")
    q = split_heads(x_q @ w_q, n_heads)  # [h, n_q, d_k]
    k = split_heads(x_kv @ w_k, n_heads)  # [h, n_k, d_k]
    v = split_heads(x_kv @ w_v, n_heads)  # [h, n_k, d_v]
    out, weights = attention(q, k, v, mask)
    out = merge_heads(out)  # [n_q, h * d_v]
    if w_o is not None:
        w_o = _projection("w_o", w_o, out.shape[1])
        out = out @ w_o
    return out, weights


def relation_projections(features, heads, relations, d_head, strength):  # -> ([d, h*d_h], [d, h*d_h], [d, h*d_h])
    """Return hand-set (W_q, W_k, W_v) that write each (head, query feature, key feature) relation into its own head.

    Inputs are one-hot over `features`. Within a head, each key feature that is looked for gets one
    slot of the head's d_head dimensions: the key feature writes strength into that slot of K, each
    query feature looking for it writes strength into the same slot of Q, so a matching pair scores
    strength^2 / sqrt(d_head). W_v copies each token's feature into every head unchanged.
    """
    features, heads = tuple(features), tuple(heads)
    d, h, d_h = len(features), positive_int("len(heads)", len(heads)), positive_int("d_head", d_head)
    strength = float(strength)
    if not (np.isfinite(strength) and strength > 0):
        raise ValueError(f"strength must be a finite number > 0, got {strength}")
    w_q, w_k = np.zeros((d, h * d_h)), np.zeros((d, h * d_h))
    slots = [{} for _ in heads]
    for name, q_feature, k_feature in relations:
        for arg, value, known in (
            ("head", name, heads),
            ("query feature", q_feature, features),
            ("key feature", k_feature, features),
        ):
            if value not in known:
                raise ValueError(f"relations must use known names, got {arg} {value!r}")
        head = heads.index(name)
        slot = slots[head].setdefault(k_feature, len(slots[head]))
        if slot >= d_h:
            raise ValueError(f"d_head must be >= the key features head {name} looks for, got d_head = {d_h}")
        col = head * d_h + slot
        w_k[features.index(k_feature), col] = strength
        w_q[features.index(q_feature), col] = strength
    w_v = np.tile(np.eye(d), (1, h))
    return w_q, w_k, w_v


def wide_head_weights(x, w_q, w_k):  # [n, d], [d, D], [d, D] -> [n, n]
    """Return the weights of ONE head as wide as all heads together: one softmax row per query."""
    x = float_array("x", x, min_ndim=2)
    w_q = _projection("w_q", w_q, x.shape[-1])
    w_k = _projection("w_k", w_k, x.shape[-1])
    if w_q.shape != w_k.shape:
        raise ValueError(f"w_q and w_k must have the same shape, got {w_q.shape} and {w_k.shape}")
    return attention(x @ w_q, x @ w_k, x @ w_k)[1]


def total_variation(p, r):  # [..., n], [..., n] -> [...] (leading axes broadcast)
    """Return half the L1 distance between distributions: 0 equal, 1 no overlap."""
    p = float_array("p", p)
    r = float_array("r", r)
    try:
        np.broadcast_shapes(p.shape, r.shape)
    except ValueError:
        raise ValueError(f"p and r must broadcast to one shape, got {p.shape} and {r.shape}") from None
    if p.shape[-1] != r.shape[-1]:
        raise ValueError(f"p and r must have the same last axis, got {p.shape} and {r.shape}")
    return 0.5 * np.abs(p - r).sum(axis=-1)

"""Gradient checks: the one finite-difference helper, the analytic Jacobian of self-attention, and who reaches whom."""

import numpy as np

from primer._checks import bool_mask, float_array
from primer.attention import attention


def numerical_jacobian(f, x, eps=1e-6):  # f: [...x] -> [...f]; [...x] -> [...f, ...x]
    """Return d f(x) / d x by central differences, one input entry at a time; for a scalar f, its gradient."""
    x = float_array("x", x, min_ndim=0)
    eps = float(eps)
    if not np.isfinite(eps) or eps <= 0:
        raise ValueError(f"eps must be a finite number > 0, got {eps}")
    if not callable(f):
        raise ValueError("f must be callable: f(x) -> array")
    out_shape = np.shape(f(x))
    jac = np.empty(out_shape + x.shape)
    for idx in np.ndindex(x.shape):
        step = np.zeros_like(x)
        step[idx] = eps
        jac[(...,) + idx] = (np.asarray(f(x + step)) - np.asarray(f(x - step))) / (2 * eps)
    return jac


def _weights(x, w_q, w_k, w_v):
    x = float_array("x", x, min_ndim=2)
    if x.ndim != 2:
        raise ValueError(f"x must have shape [n, d], got {x.shape}")
    ws = []
    for name, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)):
        w = float_array(name, w, min_ndim=2)
        if w.ndim != 2 or w.shape[0] != x.shape[1]:
            raise ValueError(f"{name} must have shape [d, ...] with d = {x.shape[1]}, got {w.shape}")
        ws.append(w)
    if ws[0].shape[1] != ws[1].shape[1]:
        raise ValueError(f"w_q and w_k must project to the same d_k, got {ws[0].shape} and {ws[1].shape}")
    return x, ws


def self_attention(x, w_q, w_k, w_v, mask=None):  # [n, d], [d, d_k], [d, d_k], [d, d_v], [n, n] -> [n, d_v]
    """Return one head of self-attention: queries, keys and values are all projections of x."""
    x, (w_q, w_k, w_v) = _weights(x, w_q, w_k, w_v)
    return attention(x @ w_q, x @ w_k, x @ w_v, mask)[0]


def self_attention_jacobian(x, w_q, w_k, w_v, mask=None):  # [n, d], ... -> [n, d_v, n, d]
    """Return d out_i / d x_m of self_attention, in closed form.

    out_i = sum_l a_il v_l, so d out_i / d x_m = a_im W_v^T
            + a_im (v_m - out_i) (W_k q_i)^T / sqrt(d_k)          (x_m as a key)
            + [i = m] sum_l a_il (v_l - out_i) (W_q k_l)^T / sqrt(d_k)   (x_i as the query)
    """
    x, (w_q, w_k, w_v) = _weights(x, w_q, w_k, w_v)
    n = x.shape[0]
    if mask is not None:
        mask = bool_mask("mask", mask, (n, n))
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    out, a = attention(q, k, v, mask)
    scale = np.sqrt(q.shape[1])
    dev = v[None, :, :] - out[:, None, :]  # [i, l, d_v]: v_l - out_i
    jac = np.einsum("im,ba->iamb", a, w_v)  # value path
    jac += np.einsum("im,ima,ib->iamb", a, dev, q @ w_k.T) / scale  # key path
    query = np.einsum("il,ila,lb->iab", a, dev, k @ w_q.T) / scale  # query path, only at m = i
    jac[np.arange(n), :, np.arange(n), :] += query
    return jac


def gradient_reach(jac):  # [n_out, e, n_in, d] -> [n_out, n_in]
    """Return the size (Frobenius norm) of each block d out_i / d x_j: 0 means x_j cannot move out_i."""
    jac = float_array("jac", jac, min_ndim=4)
    if jac.ndim != 4:
        raise ValueError(f"jac must have shape [n_out, e, n_in, d], got {jac.shape}")
    return np.sqrt((jac**2).sum(axis=(1, 3)))


def max_relative_error(a, b):  # [...], [...] -> float
    """Return max |a - b| / max(|a|, |b|, 1e-12) over all entries: how far two Jacobians disagree."""
    a = float_array("a", a)
    b = float_array("b", b)
    if a.shape != b.shape:
        raise ValueError(f"a and b must have the same shape, got {a.shape} and {b.shape}")
    return float(np.max(np.abs(a - b) / np.maximum(np.maximum(np.abs(a), np.abs(b)), 1e-12)))

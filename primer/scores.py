"""Score functions of attention (additive, dot, bilinear, scaled dot) and why the scaled one divides by sqrt(d_k)."""

import copy
import functools

import numpy as np

from primer._checks import float_array, positive_int
from primer.softmax import softmax


def _pair(q, k, *, same_width):
    q = float_array("q", q, min_ndim=2)
    k = float_array("k", k, min_ndim=2)
    if same_width and q.shape[-1] != k.shape[-1]:
        raise ValueError(f"q and k must share d_k (last axis) for a dot-product score, got q {q.shape} and k {k.shape}")
    return q, k


def additive_score(
    q, k, w_q, w_k, v
):  # [..., n_q, d_q], [..., n_k, d_k], [d_q, d_a], [d_k, d_a], [d_a] -> [..., n_q, n_k]
    """Return Bahdanau's additive score v . tanh(q W_q + k W_k) for every (query, key) pair: a one-layer MLP per pair.

    The weights are [d_in, d_a], applied as q @ w_q like every projection in primer. In chapter 2 the
    queries are the decoder states s and the keys the encoder states h.
    """
    q, k = _pair(q, k, same_width=False)
    w_q = float_array("w_q", w_q, min_ndim=2)
    w_k = float_array("w_k", w_k, min_ndim=2)
    v = float_array("v", v)
    if w_q.ndim != 2 or w_q.shape[0] != q.shape[-1]:
        raise ValueError(f"w_q must have shape [d_q, d_a] with d_q = {q.shape[-1]}, got {w_q.shape}")
    if w_k.ndim != 2 or w_k.shape[0] != k.shape[-1]:
        raise ValueError(f"w_k must have shape [d_k, d_a] with d_k = {k.shape[-1]}, got {w_k.shape}")
    if w_k.shape[1] != w_q.shape[1] or v.shape != (w_q.shape[1],):
        raise ValueError(
            f"w_q, w_k and v must share the hidden width d_a, got w_q {w_q.shape}, w_k {w_k.shape}, v {v.shape}"
        )
    hidden = np.tanh((q @ w_q)[..., :, None, :] + (k @ w_k)[..., None, :, :])  # [..., n_q, n_k, d_a]
    return hidden @ v


def dot_score(q, k):  # [..., n_q, d_k], [..., n_k, d_k] -> [..., n_q, n_k]
    """Return the dot score q . k (as Luong et al. named it) for every (query, key) pair."""
    q, k = _pair(q, k, same_width=True)
    return q @ np.swapaxes(k, -1, -2)


def bilinear_score(q, k, w):  # [..., n_q, d_q], [..., n_k, d_k], [d_q, d_k] -> [..., n_q, n_k]
    """Return the bilinear score q W k^T for every (query, key) pair; W is learned."""
    q, k = _pair(q, k, same_width=False)
    w = float_array("w", w, min_ndim=2)
    if w.shape != (q.shape[-1], k.shape[-1]):
        raise ValueError(f"w must have shape [d_q, d_k] = {(q.shape[-1], k.shape[-1])}, got {w.shape}")
    return q @ w @ np.swapaxes(k, -1, -2)


def scaled_dot_score(q, k):  # [..., n_q, d_k], [..., n_k, d_k] -> [..., n_q, n_k]
    """Return the Transformer's score q . k / sqrt(d_k) for every (query, key) pair."""
    q, k = _pair(q, k, same_width=True)
    return q @ np.swapaxes(k, -1, -2) / np.sqrt(q.shape[-1])


def score_variance(d_k, n_samples=20_000, seed=0):  # -> (float, float)
    """Return the measured variance of q . k and of q . k / sqrt(d_k) over random unit-variance q, k."""
    d_k = positive_int("d_k", d_k)
    n_samples = positive_int("n_samples", n_samples)
    if n_samples < 2:
        raise ValueError(f"n_samples must be >= 2 to measure a variance, got {n_samples}")
    if isinstance(seed, (int, np.integer)):  # a seeded draw is a pure function of its arguments: remember it
        return _seeded_score_variance(d_k, n_samples, int(seed))
    return _score_variance(d_k, n_samples, seed)


@functools.lru_cache(
    maxsize=64
)  # chapter 3 asks for the same draws four times (table, chart; zh, en): ~1 s each at d_k 1024
def _seeded_score_variance(d_k, n_samples, seed):
    return _score_variance(d_k, n_samples, seed)


def _score_variance(d_k, n_samples, seed):
    rng = np.random.default_rng(seed)
    dots = np.empty(n_samples)
    chunk = max(1, 2_000_000 // d_k)  # keep each draw under ~16 MB whatever d_k is
    for start in range(0, n_samples, chunk):
        stop = min(n_samples, start + chunk)
        q = rng.standard_normal((stop - start, d_k))
        k = rng.standard_normal((stop - start, d_k))
        dots[start:stop] = np.einsum("nd,nd->n", q, k)
    return float(dots.var()), float((dots / np.sqrt(d_k)).var())


def softmax_saturation(d_k, n_keys=16, n_trials=2_000, seed=0):  # -> dict
    """Return the mean largest weight and mean entropy (nats) of softmax rows, unscaled vs scaled by sqrt(d_k)."""
    d_k = positive_int("d_k", d_k)
    n_keys = positive_int("n_keys", n_keys)
    n_trials = positive_int("n_trials", n_trials)
    if n_keys < 2:
        raise ValueError(f"n_keys must be >= 2 for a softmax to have a choice, got {n_keys}")
    if isinstance(
        seed, (int, np.integer)
    ):  # as score_variance: a seeded draw is remembered; each caller gets its own dict
        return copy.deepcopy(_seeded_softmax_saturation(d_k, n_keys, n_trials, int(seed)))
    return _softmax_saturation(d_k, n_keys, n_trials, seed)


@functools.lru_cache(maxsize=64)
def _seeded_softmax_saturation(d_k, n_keys, n_trials, seed):
    return _softmax_saturation(d_k, n_keys, n_trials, seed)


def _softmax_saturation(d_k, n_keys, n_trials, seed):
    rng = np.random.default_rng(seed)
    q = rng.standard_normal((n_trials, 1, d_k))
    k = rng.standard_normal((n_trials, n_keys, d_k))
    raw = (q @ np.swapaxes(k, -1, -2))[:, 0, :]  # [n_trials, n_keys]
    out = {}
    for name, scores in (("unscaled", raw), ("scaled", raw / np.sqrt(d_k))):
        w = softmax(scores)
        entropy = -np.sum(np.where(w > 0, w * np.log(np.where(w > 0, w, 1.0)), 0.0), axis=-1)
        out[name] = {"max_weight": float(w.max(axis=-1).mean()), "entropy": float(entropy.mean())}
    out["uniform_entropy"] = float(np.log(n_keys))
    return out

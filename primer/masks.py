"""Attention masks. Everywhere in primer, mask[i, j] True means query i may read key j."""

import numpy as np

from primer._checks import nonneg_int, positive_int


def full_mask(n_q, n_k=None):  # -> [n_q, n_k]
    """Return the all-True mask of an encoder or of cross-attention: every query reads every key."""
    n_q = positive_int("n_q", n_q)
    n_k = n_q if n_k is None else positive_int("n_k", n_k)
    return np.ones((n_q, n_k), dtype=bool)


def causal_mask(n_q, n_k=None):  # -> [n_q, n_k]
    """Return the causal mask: query i reads keys up to and including its own position.

    With n_k > n_q the queries are the last n_q positions (aligned bottom-right), as in
    cached decoding, so causal_mask(1, n) is all True.
    """
    n_q = positive_int("n_q", n_q)
    n_k = n_q if n_k is None else positive_int("n_k", n_k)
    if n_k < n_q:
        raise ValueError(f"n_k must be >= n_q for a causal mask (queries are the last n_q of n_k positions), got n_q={n_q}, n_k={n_k}")
    return np.tri(n_q, n_k, k=n_k - n_q, dtype=bool)


def window_mask(n, window):  # -> [n, n]
    """Return a sliding-window causal mask: query i reads keys i - window .. i.

    window 0 keeps only the diagonal; window >= n - 1 equals causal_mask(n). A negative
    window is refused, because row 0 would have no key left to read.
    """
    n = positive_int("n", n)
    if isinstance(window, (int, np.integer)) and not isinstance(window, bool) and window < 0:
        raise ValueError(f"window must be >= 0: at window={window} row 0 has no key left, and its softmax would be 0/0")
    window = nonneg_int("window", window)
    i, j = np.indices((n, n))
    return (j <= i) & (j >= i - window)


def additive_mask(mask, fill=-np.inf):  # [..., n_q, n_k] bool -> same shape, float
    """Turn a bool mask into what is added to the scores: 0 where open, fill where closed."""
    mask = np.asarray(mask)
    if mask.dtype != bool:
        raise ValueError(f"mask must be a bool array (True: query i may read key j), got dtype {mask.dtype}")
    fill = float(fill)
    if np.isnan(fill) or fill > 0:
        raise ValueError(f"fill must be 0, a negative number or -inf, got {fill}")
    return np.where(mask, 0.0, fill)

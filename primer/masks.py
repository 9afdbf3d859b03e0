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
    """Return a sliding-window causal mask: query i reads the window most recent keys, i - window + 1 .. i.

    The window counts the query's own key, as a model's published sliding_window does (Mistral-7B
    v0.1: 4096), and it is also the number of tokens a sliding-window KV cache keeps. window 1
    keeps only the diagonal; window >= n equals causal_mask(n). Used in chapters 5 and 11.
    """
    n = positive_int("n", n)
    if isinstance(window, (int, np.integer)) and not isinstance(window, bool) and window < 1:
        raise ValueError(f"window must be >= 1 (it counts the query's own key): at window={window} "
                         f"every row has no key left, and its softmax would be 0/0")
    window = positive_int("window", window)
    i, j = np.indices((n, n))
    return (j <= i) & (j > i - window)


def additive_mask(mask, fill=-np.inf):  # [..., n_q, n_k] bool -> same shape, float
    """Turn a bool mask into what is added to the scores: 0 where open, fill where closed."""
    mask = np.asarray(mask)
    if mask.dtype != bool:
        raise ValueError(f"mask must be a bool array (True: query i may read key j), got dtype {mask.dtype}")
    fill = float(fill)
    if np.isnan(fill) or fill > 0:
        raise ValueError(f"fill must be 0, a negative number or -inf, got {fill}")
    return np.where(mask, 0.0, fill)

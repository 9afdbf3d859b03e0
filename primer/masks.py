"""Attention masks. Everywhere in primer, mask[i, j] True means query i may read key j."""

import numpy as np

from primer._checks import int_at_least, positive_int


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
        raise ValueError(
            "n_k must be >= n_q for a causal mask (queries are the last n_q of n_k positions), "
            f"got n_q={n_q}, n_k={n_k}"
        )
    return np.tri(n_q, n_k, k=n_k - n_q, dtype=bool)


def window_mask(n, window):  # -> [n, n]
    """Return a sliding-window causal mask: query i reads the window most recent keys, i - window + 1 .. i.

    The window counts the query's own key, as a model's published sliding_window does (Mistral-7B
    v0.1: 4096), and it is also the number of tokens a sliding-window KV cache keeps. window 1
    keeps only the diagonal; window >= n equals causal_mask(n).
    """
    n = positive_int("n", n)
    if isinstance(window, (int, np.integer)) and not isinstance(window, bool) and window < 1:
        raise ValueError(
            f"window must be >= 1 (it counts the query's own key): at window={window} "
            f"every row has no key left, and its softmax would be 0/0"
        )
    window = positive_int("window", window)
    too_old = np.tri(n, n, k=-window, dtype=bool)  # key j <= i - window
    return causal_mask(n) & ~too_old


def additive_mask(mask, fill=-np.inf):  # [..., n_q, n_k] bool -> same shape, float
    """Turn a bool mask into what is added to the scores: 0 where open, fill where closed."""
    mask = np.asarray(mask)
    if mask.dtype != bool:
        raise ValueError(f"mask must be a bool array (True: query i may read key j), got dtype {mask.dtype}")
    fill = float(fill)
    if np.isnan(fill) or fill > 0:
        raise ValueError(f"fill must be 0, a negative number or -inf, got {fill}")
    return np.where(mask, 0.0, fill)


# ---- padding: a batch of sentences of different lengths ---------------------------------------

PAD_SIDES = ("right", "left")  # where the padding goes; used in chapter 5
PADDED_QUERIES = ("self", "and")  # what a padded query reads: only itself (primer), or the plain AND


def key_padding_mask(lengths, n, *, side="right"):  # [batch] -> [batch, n]
    """Return True where position j of sentence b holds a real token, False where it holds padding."""
    n = positive_int("n", n)
    if side not in PAD_SIDES:
        raise ValueError(f"side must be one of {PAD_SIDES}, got {side!r}")
    raw = np.asarray(lengths)
    if raw.ndim != 1 or raw.size == 0:
        raise ValueError(f"lengths must be a non-empty 1-D list of sentence lengths, got shape {raw.shape}")
    lengths = np.array([int_at_least("lengths", x, 1) for x in raw.tolist()])
    if lengths.max() > n:
        raise ValueError(
            f"lengths must be <= n (every sentence fits the padded length), got max {lengths.max()} > n={n}"
        )
    j = np.arange(n)
    if side == "right":
        return j[None, :] < lengths[:, None]
    return j[None, :] >= (n - lengths)[:, None]


def batch_mask(lengths, n, *, causal=False, side="right", padded_queries="self"):  # [batch] -> [batch, n, n]
    """Return the masks of a padded batch: (causal or full) AND the key padding mask, one [n, n] per sentence.

    padded_queries="self" (primer's rule): a padded query reads only itself. Its output is thrown
    away anyway, but its row must keep an open key: under left padding and a causal mask the plain
    AND leaves those rows empty (softmax 0/0). Real rows are the same under both rules.
    padded_queries="and" returns the plain AND, empty rows and all, to show what goes wrong.
    """
    if not isinstance(causal, bool):
        raise ValueError(f"causal must be True or False, got {causal!r}")
    if padded_queries not in PADDED_QUERIES:
        raise ValueError(f"padded_queries must be one of {PADDED_QUERIES}, got {padded_queries!r}")
    real = key_padding_mask(lengths, n, side=side)  # [batch, n]
    base = causal_mask(n) if causal else full_mask(n)  # [n, n]
    mask = base[None, :, :] & real[:, None, :]  # a key must be allowed AND real
    if padded_queries == "and":
        return mask
    return np.where(real[:, :, None], mask, np.eye(n, dtype=bool)[None])  # padded query rows: the diagonal


def empty_rows(mask):  # [..., n_q, n_k] -> [..., n_q]
    """Return True for each query row with no open key, whose softmax would be 0/0."""
    mask = np.asarray(mask)
    if mask.dtype != bool or mask.ndim < 2:
        raise ValueError(
            f"mask must be a bool array of at least 2 dimensions, got dtype {mask.dtype}, ndim {mask.ndim}"
        )
    return ~mask.any(axis=-1)

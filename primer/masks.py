"""Attention masks. Everywhere in primer, mask[i, j] True means query i may read key j."""

import numpy as np

from primer._checks import int_at_least, nonneg_int, positive_int


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


def window_mask(n, window, *, sinks=0):  # -> [n, n]
    """Return a sliding-window causal mask: query i reads the window most recent keys, i - window + 1 .. i.

    The window counts the query's own key, as a model's published sliding_window does (Mistral-7B
    v0.1: 4096), and it is also the number of tokens a sliding-window KV cache keeps. window 1
    keeps only the diagonal; window >= n equals causal_mask(n). sinks > 0 also keeps the first
    sinks keys open to every later query (StreamingLLM's attention sinks); sinks=0 is the plain window.
    """
    n = positive_int("n", n)
    if isinstance(window, (int, np.integer)) and not isinstance(window, bool) and window < 1:
        raise ValueError(
            f"window must be >= 1 (it counts the query's own key): at window={window} "
            f"every row has no key left, and its softmax would be 0/0"
        )
    window = positive_int("window", window)
    sinks = nonneg_int("sinks", sinks)
    too_old = np.tri(n, n, k=-window, dtype=bool)  # key j <= i - window
    mask = causal_mask(n) & ~too_old
    if sinks:
        mask |= causal_mask(n) & (np.arange(n)[None, :] < sinks)  # key j < sinks, and j <= i
    return mask


def _ids(name, value):  # -> [n] int array
    """Return value as a non-empty 1-D int array, or raise (bools and floats are not ids)."""
    if isinstance(value, (list, tuple)) and any(isinstance(x, (bool, np.bool_)) for x in value):
        raise ValueError(f"{name} must be a 1-D sequence of integers (bools are not integers), got {list(value)!r}")
    raw = np.asarray(value)
    if raw.ndim != 1 or raw.size == 0:
        raise ValueError(f"{name} must be a non-empty 1-D sequence of integers, got shape {raw.shape}")
    if raw.dtype == bool or not np.issubdtype(raw.dtype, np.integer):
        raise ValueError(f"{name} must be a 1-D sequence of integers (not bools or floats), got dtype {raw.dtype}")
    return raw.astype(np.int64)


def document_mask(doc_ids, *, causal=True):  # [n] -> [n, n]
    """Return the mask of packed documents: query i reads key j iff both are in the same document (and j <= i).

    doc_ids[i] names the document of position i; with causal=False each document reads itself both ways.
    """
    doc_ids = _ids("doc_ids", doc_ids)
    if not isinstance(causal, bool):
        raise ValueError(f"causal must be True or False, got {causal!r}")
    same = doc_ids[:, None] == doc_ids[None, :]
    return same & causal_mask(doc_ids.size) if causal else same


def cu_seqlens(doc_ids):  # [n] -> [n_docs + 1]
    """Return the cumulative document lengths, 0 first: document d holds positions cu[d] .. cu[d + 1] - 1.

    The documents must be contiguous runs numbered 0, 1, 2, ... in order, as in a packed row.
    """
    doc_ids = _ids("doc_ids", doc_ids)
    starts = np.flatnonzero(np.diff(doc_ids, prepend=-1))  # where a new run begins
    runs = doc_ids[starts]
    if not np.array_equal(runs, np.arange(runs.size)):
        raise ValueError(
            "doc_ids must be contiguous runs numbered 0, 1, 2, ... in order "
            f"(each document once, in one piece), got runs {runs.tolist()}"
        )
    return np.append(starts, doc_ids.size).astype(np.int64)


def prefix_lm_mask(n, prefix):  # -> [n, n]
    """Return the prefix-LM mask: query i reads key j iff j < prefix (the prefix is read both ways) or j <= i.

    prefix 0 is causal_mask(n); prefix n is full_mask(n).
    """
    n = positive_int("n", n)
    prefix = nonneg_int("prefix", prefix)
    if prefix > n:
        raise ValueError(f"prefix must be <= n (the prefix is part of the row), got prefix={prefix}, n={n}")
    return causal_mask(n) | (np.arange(n)[None, :] < prefix)


def chunked_mask(n, chunk):  # -> [n, n]
    """Return the chunked causal mask: query i reads key j iff j <= i and both lie in the same chunk of chunk positions.

    chunk >= n equals causal_mask(n); chunk 1 keeps only the diagonal.
    """
    n = positive_int("n", n)
    chunk = positive_int("chunk", chunk)
    block = np.arange(n) // chunk
    return causal_mask(n) & (block[:, None] == block[None, :])


def tree_mask(parents):  # [m] -> [m, m]
    """Return the mask of a tree of tokens: node i reads node j iff j == i or j is an ancestor of i.

    parents[i] is node i's parent, -1 for a root; every parent comes before its child, and node 0 is a root.
    """
    parents = _ids("parents", parents)
    if parents[0] != -1:
        raise ValueError(f"parents[0] must be -1 (node 0 is a root), got {parents[0]}")
    i = np.arange(parents.size)
    bad = (parents < -1) | (parents >= i)
    if bad.any():
        k = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"parents[i] must be -1 (a root) or an earlier node (0 <= parents[i] < i), got parents[{k}]={parents[k]}"
        )
    mask = np.eye(parents.size, dtype=bool)
    for node in range(1, parents.size):  # a parent's row is complete before its children's
        if parents[node] >= 0:
            mask[node] |= mask[parents[node]]
    return mask


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

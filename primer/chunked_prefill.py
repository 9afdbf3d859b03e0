"""Chunked prefill: a prompt's queries in chunks of c, each chunk reading every key so far (queries != keys).

The chunk's queries are the last rows of the keys it reads, so its causal mask must align bottom-right
(primer's causal_mask; FlashAttention's causal=True, by its docstring). Aligned top-left (SDPA's is_causal),
query r of the chunk reads keys 0 .. r only, as if it stood at the start of the prompt.
"""

import numpy as np

from primer._checks import float_array, positive_int
from primer.attention import attention
from primer.masks import causal_mask

ALIGNMENTS = ("bottom_right", "top_left")


def aligned_causal_mask(n_q, n_k, alignment):  # -> [n_q, n_k]
    """Return the causal mask of n_q queries over n_k keys: bottom_right (primer's) or top_left (SDPA's is_causal)."""
    if alignment not in ALIGNMENTS:
        raise ValueError(f"alignment must be one of {ALIGNMENTS}, got {alignment!r}")
    if alignment == "bottom_right":
        return causal_mask(n_q, n_k)
    return np.tri(positive_int("n_q", n_q), positive_int("n_k", n_k), dtype=bool)  # query r reads keys 0 .. r


def prefill_mask(n, chunk, alignment):  # -> [n, n]
    """Return which keys each query of a prompt reads when prefilled in chunks: causal_mask(n) only for bottom_right."""
    n, chunk = positive_int("n", n), positive_int("chunk", chunk)
    mask = np.zeros((n, n), dtype=bool)
    for start in range(0, n, chunk):
        end = min(start + chunk, n)
        mask[start:end, :end] = aligned_causal_mask(end - start, end, alignment)
    return mask


def chunked_prefill(q, k, v, chunk, *, alignment="bottom_right"):  # [n, d_k], [n, d_k], [n, d_v] -> [n, d_v]
    """Run a prompt's queries chunk by chunk, each chunk reading the keys of every position up to its own end."""
    q, k, v = float_array("q", q, min_ndim=2), float_array("k", k, min_ndim=2), float_array("v", v, min_ndim=2)
    n = q.shape[0]
    if q.ndim != 2 or k.shape[0] != n or v.shape[0] != n:
        raise ValueError(f"q, k and v must be [n, d] with the same n, got {q.shape}, {k.shape}, {v.shape}")
    chunk = positive_int("chunk", chunk)
    if alignment not in ALIGNMENTS:
        raise ValueError(f"alignment must be one of {ALIGNMENTS}, got {alignment!r}")
    out = np.empty((n, v.shape[1]))
    for start in range(0, n, chunk):
        end = min(start + chunk, n)  # the cache holds keys 0 .. end - 1 once this chunk's are appended
        mask = aligned_causal_mask(end - start, end, alignment)
        out[start:end] = attention(q[start:end], k[:end], v[:end], mask)[0]
    return out


def alignment_error(q, k, v, chunk):  # -> float
    """Return max |chunked prefill aligned top-left - one-shot prefill| over all outputs: the wrong alignment's cost."""
    one_shot = attention(q, k, v, causal_mask(np.shape(q)[0]))[0]
    return float(np.abs(chunked_prefill(q, k, v, chunk, alignment="top_left") - one_shot).max())

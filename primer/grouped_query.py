"""Grouped-query attention: several query heads share one key head and one value head."""

import numpy as np

from primer._checks import float_array
from primer.attention import attention


def repeat_kv(kv, n_heads):  # [h_kv, n, d_h] -> [n_heads, n, d_h]
    """Repeat each key (or value) head for its group of query heads: query head i reads kv head i // group size."""
    kv = float_array("kv", kv, min_ndim=3, keep_float32=True)
    h_kv = kv.shape[-3]
    if isinstance(n_heads, bool) or not isinstance(n_heads, (int, np.integer)) or n_heads < 1 or n_heads % h_kv:
        raise ValueError(f"n_heads must be a positive multiple of the {h_kv} key/value heads, got {n_heads!r}")
    return np.repeat(kv, n_heads // h_kv, axis=-3)


def grouped_query_attention(
    q, k, v, mask=None
):  # [h, n_q, d_h], [h_kv, n_k, d_h], [h_kv, n_k, d_h], [n_q, n_k] -> ([h, n_q, d_h], [h, n_q, n_k])
    """Return primer's attention of every query head on its group's keys and values, under the one mask."""
    q = float_array("q", q, min_ndim=3, keep_float32=True)
    k = float_array("k", k, min_ndim=3, keep_float32=True)
    v = float_array("v", v, min_ndim=3, keep_float32=True)
    if k.shape != v.shape:
        raise ValueError(f"k and v must have the same shape [h_kv, n_k, d_h], got k {k.shape} and v {v.shape}")
    n_heads = q.shape[-3]
    return attention(q, repeat_kv(k, n_heads), repeat_kv(v, n_heads), mask)

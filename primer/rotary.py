"""Rotary position embeddings (RoPE): turn each pair of a query's or key's coordinates by an angle set by its position.

The pairs are neighbours, (x[2i], x[2i+1]), as in the RoFormer paper and in llama.cpp's "normal" rope, the layout a
Llama GGUF file stores its query and key weights in. Hugging Face's Llama pairs x[i] with x[i + d/2] instead, on
weights whose columns are ordered to match; the two give the same scores. Pair i turns by position * theta ** (-2i / d),
so a query at position m and a key at position n score through their offset m - n only.
"""

import numpy as np

from primer._checks import float_array


def _positions(positions, n=None):  # -> [n] int
    p = np.asarray(positions)
    if p.ndim != 1 or p.shape[0] == 0 or (n is not None and p.shape[0] != n):
        want = "[n], not empty" if n is None else f"[n] = [{n}], one per row"
        raise ValueError(f"positions must have shape {want}, got {p.shape}")
    if p.dtype == bool or not np.issubdtype(p.dtype, np.integer) or (p < 0).any():
        raise ValueError(f"positions must be integers >= 0, got {p.dtype} {p.tolist()[:8]}")
    return p.astype(np.int64)


def rotary_angles(positions, d_head, theta=10_000.0):  # [n] -> [n, d_head / 2]
    """Return the angle each pair (2i, 2i+1) turns by at each position: position * theta ** (-2i / d_head)."""
    if isinstance(d_head, bool) or not isinstance(d_head, (int, np.integer)) or d_head < 2 or d_head % 2:
        raise ValueError(f"d_head must be an even integer >= 2 (coordinates turn in pairs), got {d_head!r}")
    if isinstance(theta, bool) or not isinstance(theta, (int, float)) or not np.isfinite(theta) or theta <= 1:
        raise ValueError(f"theta must be a finite number > 1 (the base of the wavelengths), got {theta!r}")
    positions = _positions(positions)
    frequencies = float(theta) ** (-np.arange(0, d_head, 2) / d_head)  # [d_head / 2], from 1 down to ~1/theta
    return positions[:, None] * frequencies[None, :]


def rotate(x, positions, theta=10_000.0):  # [..., n, d_head], [n] -> [..., n, d_head]
    """Turn each pair (x[2i], x[2i+1]) of row m by rotary_angles(positions)[m, i]; a float32 x stays float32."""
    x = float_array("x", x, min_ndim=2, keep_float32=True)
    positions = _positions(positions, x.shape[-2])
    angles = rotary_angles(positions, x.shape[-1], theta)  # [n, d_head / 2]
    cos, sin = np.cos(angles).astype(x.dtype), np.sin(angles).astype(x.dtype)
    even, odd = x[..., 0::2], x[..., 1::2]  # [..., n, d_head / 2] each: the two coordinates of every pair
    out = np.empty_like(x)
    out[..., 0::2] = even * cos - odd * sin
    out[..., 1::2] = even * sin + odd * cos
    return out

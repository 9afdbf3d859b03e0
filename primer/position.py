"""Positional encoding: the sinusoids of the original Transformer, and what attention does without them."""

import numpy as np

from primer._checks import float_array, positive_int


def sinusoidal_encoding(n, d, base=10_000.0):  # -> [n, d]
    """Return PE[pos, 2i] = sin(pos / base^(2i/d)), PE[pos, 2i+1] = cos(pos / base^(2i/d))."""
    n = positive_int("n", n)
    d = positive_int("d", d)
    if d % 2:
        raise ValueError(f"d must be even (sine and cosine come in pairs), got {d}")
    base = float(base)
    if not np.isfinite(base) or base <= 1:
        raise ValueError(f"base must be a finite number > 1, got {base}")
    angle = np.arange(n)[:, None] / base ** (np.arange(0, d, 2) / d)[None, :]  # [n, d/2]
    pe = np.empty((n, d))
    pe[:, 0::2] = np.sin(angle)
    pe[:, 1::2] = np.cos(angle)
    return pe


def add_positions(x):  # [n, d] -> [n, d]
    """Return x plus the sinusoidal encoding of its positions 0 .. n-1."""
    x = float_array("x", x, min_ndim=2)
    if x.ndim != 2:
        raise ValueError(f"x must have shape [n, d], got {x.shape}")
    return x + sinusoidal_encoding(*x.shape)


def validate_permutation(perm, n):  # -> [n] int
    """Return perm as an int array, or raise unless it reorders 0 .. n-1."""
    perm = np.asarray(perm)
    if perm.ndim != 1 or perm.dtype.kind not in "iu" or sorted(perm.tolist()) != list(range(n)):
        raise ValueError(f"perm must be a reordering of 0 .. {n - 1}, got {perm.tolist()}")
    return perm


def permutation_gap(f, x, perm):  # f: [n, d] -> [n, e]; [n, d], [n] -> float
    """Return max |f(x[perm]) - f(x)[perm]|: 0 means f is permutation-equivariant on this input."""
    if not callable(f):
        raise ValueError("f must be callable: f(x) -> [n, e]")
    x = float_array("x", x, min_ndim=2)
    perm = validate_permutation(perm, x.shape[0])
    return float(np.max(np.abs(np.asarray(f(x[perm])) - np.asarray(f(x))[perm])))


# ---- chapter 4's order example: 「狗 咬 人」 and 「人 咬 狗」 through one multi-head block.
ORDER_TOKENS = ("狗", "咬", "人")
ORDER_SWAP = (2, 1, 0)  # 狗 咬 人 -> 人 咬 狗
ORDER_D, ORDER_HEADS = 8, 2
_rng = np.random.default_rng(24)
ORDER_X = _rng.normal(size=(3, ORDER_D))  # seeded word vectors
ORDER_W = tuple(_rng.normal(scale=0.6, size=(ORDER_D, ORDER_D)) for _ in range(4))  # W_q, W_k, W_v, W_o
del _rng

# The size of the positional-encoding heatmap.
PE_N, PE_D = 64, 128

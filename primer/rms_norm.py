"""RMSNorm: divide each row by its root mean square, then scale (Llama's norm: no mean taken, no shift)."""

import numpy as np

from primer._checks import float_array


def rms_norm(x, g, eps=1e-5):  # [..., d], [d] -> [..., d]
    """Return x / sqrt(mean(x ** 2) + eps) * g over the last axis; a float32 x stays float32."""
    x = float_array("x", x, keep_float32=True)
    g = float_array("g", g, keep_float32=True)
    if g.shape != x.shape[-1:]:
        raise ValueError(f"g must have shape [d] with d the last axis of x, got g {g.shape} and x {x.shape}")
    if not (isinstance(eps, (int, float)) and not isinstance(eps, bool) and np.isfinite(eps) and eps > 0):
        raise ValueError(f"eps must be a finite number > 0 (it keeps a zero row from dividing by 0), got {eps!r}")
    mean_square = np.mean(x * x, axis=-1, keepdims=True)  # [..., 1]
    return (x / np.sqrt(mean_square + x.dtype.type(eps)) * g).astype(x.dtype, copy=False)

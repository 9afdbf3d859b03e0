"""SwiGLU: the gated feed-forward of Llama-style blocks, silu(x W_gate) * (x W_up), then W_down."""

import numpy as np

from primer._checks import float_array


def silu(z):  # [...] -> [...]
    """Return z * sigmoid(z), with sigmoid(z) = (1 + tanh(z / 2)) / 2 so no exp overflows."""
    z = float_array("z", z, keep_float32=True)
    return z * (0.5 * (1 + np.tanh(0.5 * z))).astype(z.dtype, copy=False)


def swiglu(x, w_gate, w_up, w_down):  # [n, d], [d, d_ff], [d, d_ff], [d_ff, d] -> [n, d]
    """Return (silu(x @ w_gate) * (x @ w_up)) @ w_down: the gate chooses, per unit, how much of x @ w_up passes."""
    x = float_array("x", x, min_ndim=2, keep_float32=True)
    ws = {name: np.asarray(w) for name, w in zip(("w_gate", "w_up", "w_down"), (w_gate, w_up, w_down))}
    d, d_ff = x.shape[-1], ws["w_gate"].shape[-1] if ws["w_gate"].ndim == 2 else None
    for name, want in zip(ws, ((d, d_ff), (d, d_ff), (d_ff, d))):
        if ws[name].shape != want or not np.issubdtype(ws[name].dtype, np.floating):
            raise ValueError(
                f"{name} must be a float array of shape [{want[0]}, {want[1]}] (d, d_ff), got {ws[name].shape}"
            )
    out = (silu(x @ ws["w_gate"]) * (x @ ws["w_up"])) @ ws["w_down"]
    if not np.isfinite(out).all():  # a NaN or inf weight reaches every row; the weights are read only then, to name it
        bad = [name for name, w in ws.items() if not np.isfinite(w).all()] or ["x"]
        raise ValueError(f"{bad[0]} must be finite (no NaN or inf): the output was not")
    return out

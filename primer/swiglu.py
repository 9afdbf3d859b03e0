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
    d = x.shape[-1]
    shapes = {"w_gate": (d, None), "w_up": (d, None), "w_down": (None, d)}
    ws = {}
    for name, w in zip(shapes, (w_gate, w_up, w_down)):
        ws[name] = float_array(name, w, min_ndim=2, keep_float32=True)
    d_ff = ws["w_gate"].shape[-1]
    for name, want in zip(shapes, ((d, d_ff), (d, d_ff), (d_ff, d))):
        if ws[name].shape != want:
            raise ValueError(f"{name} must have shape {list(want)} (d={d}, d_ff={d_ff}), got {list(ws[name].shape)}")
    return (silu(x @ ws["w_gate"]) * (x @ ws["w_up"])) @ ws["w_down"]

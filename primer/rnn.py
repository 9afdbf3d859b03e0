"""A vanilla RNN in numpy: the forward recurrence, backpropagation through time, and how far apart two words sit."""

from typing import NamedTuple

import numpy as np

from primer._checks import float_array, positive_int
from primer.softmax import softmax

ACTIVATIONS = ("tanh", "linear")  # used in chapter 1 (rnn)
LOSSES = ("mse", "cross_entropy")  # the two readout losses of chapter 1 (rnn)


def char_position(text, char):  # str, str -> int
    """Return the 1-based position of char in text; it must occur exactly once."""
    if not isinstance(text, str) or not text:
        raise ValueError(f"text must be a non-empty string, got {text!r}")
    if not isinstance(char, str) or len(char) != 1:
        raise ValueError(f"char must be a single character, got {char!r}")
    count = text.count(char)
    if count != 1:
        raise ValueError(f"char {char!r} must occur exactly once in text, found {count} times")
    return text.index(char) + 1


def dependency_distance(text, head, tail):  # str, str, str -> (int, int, int)
    """Return (position of head, position of tail, tail - head), positions 1-based; head must come first."""
    p, q = char_position(text, head), char_position(text, tail)
    if q <= p:
        raise ValueError(f"tail {tail!r} must come after head {head!r} in text, got positions {p} and {q}")
    return p, q, q - p


def _activation(name):
    if name not in ACTIVATIONS:
        raise ValueError(f"activation must be one of {ACTIVATIONS}, got {name!r}")
    return name


def _check_shapes(x, w, u, b, h0):
    x = float_array("x", x, min_ndim=2)
    w = float_array("w", w, min_ndim=2)
    u = float_array("u", u, min_ndim=2)
    b = float_array("b", b)
    if x.ndim != 2:
        raise ValueError(f"x must be [T, d_in], got shape {x.shape}")
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"w must be a square [d, d] matrix, got shape {w.shape}")
    d = w.shape[0]
    if u.shape != (d, x.shape[1]):
        raise ValueError(f"u must be [d, d_in] = {(d, x.shape[1])}, got shape {u.shape}")
    if b.shape != (d,):
        raise ValueError(f"b must be [d] = {(d,)}, got shape {b.shape}")
    if h0 is None:
        h0 = np.zeros(d)
    else:
        h0 = float_array("h0", h0)
        if h0.shape != (d,):
            raise ValueError(f"h0 must be [d] = {(d,)}, got shape {h0.shape}")
    return x, w, u, b, h0


def rnn_forward(x, w, u, b, h0=None, *, activation="tanh"):  # [T, d_in], [d, d], [d, d_in], [d], [d] -> [T, d]
    """Run h_t = f(W h_{t-1} + U x_t + b) for t = 1..T from h0 (zeros by default); return h_1..h_T."""
    activation = _activation(activation)
    x, w, u, b, h = _check_shapes(x, w, u, b, h0)
    out = np.empty((x.shape[0], w.shape[0]))
    for t in range(x.shape[0]):  # step t waits for step t-1: the loop cannot be parallelised
        pre = w @ h + u @ x[t] + b
        h = np.tanh(pre) if activation == "tanh" else pre
        out[t] = h
    return out


class RNNGrads(NamedTuple):
    """Gradients of a loss L with respect to every hidden state, the parameters, h0 and the inputs."""

    h: np.ndarray  # [T, d]: dL/dh_t, all paths through later steps included
    w: np.ndarray  # [d, d]
    u: np.ndarray  # [d, d_in]
    b: np.ndarray  # [d]
    h0: np.ndarray  # [d]
    x: np.ndarray  # [T, d_in]


def rnn_backward(
    x, h, w, u, b, dh_out, h0=None, *, activation="tanh"
):  # [T, d_in], [T, d], [d, d], [d, d_in], [d], [T, d], [d] -> RNNGrads
    """Backpropagate through time, given h from rnn_forward and dh_out[t] = the loss's direct dL/dh_t."""
    activation = _activation(activation)
    x, w, u, b, h0 = _check_shapes(x, w, u, b, h0)
    h = float_array("h", h, min_ndim=2)
    dh_out = float_array("dh_out", dh_out, min_ndim=2)
    shape = (x.shape[0], w.shape[0])
    if h.shape != shape:
        raise ValueError(f"h must be [T, d] = {shape} (the output of rnn_forward), got shape {h.shape}")
    if dh_out.shape != shape:
        raise ValueError(f"dh_out must be [T, d] = {shape}, got shape {dh_out.shape}")
    n = x.shape[0]
    dh = np.zeros(shape)
    dw, du, db = np.zeros_like(w), np.zeros_like(u), np.zeros_like(b)
    dx = np.zeros_like(x)
    carry = np.zeros(w.shape[0])  # dL/dh_t arriving from step t+1
    for t in range(n - 1, -1, -1):
        dh[t] = dh_out[t] + carry
        delta = dh[t] * (1.0 - h[t] ** 2) if activation == "tanh" else dh[t]  # dL/d(pre_t)
        prev = h[t - 1] if t > 0 else h0
        dw += np.outer(delta, prev)
        du += np.outer(delta, x[t])
        db += delta
        dx[t] = u.T @ delta
        carry = w.T @ delta  # one Jacobian diag(1 - h_t^2) W, transposed
    return RNNGrads(h=dh, w=dw, u=du, b=db, h0=carry, x=dx)


class Readout(NamedTuple):
    """A per-step readout z_t = V h_t + c, its loss and its error terms."""

    loss: float  # L = sum over t of L_t
    y_hat: np.ndarray  # [T, k]: the prediction (z itself for mse, softmax(z) for cross_entropy)
    target: np.ndarray  # [T, k]: y (one-hot rows for cross_entropy)
    error: np.ndarray  # [T, k]: dL/dz_t = y_hat_t - y_t, the error term
    dh: np.ndarray  # [T, d]: dL_t/dh_t = V^T (y_hat_t - y_t), the direct term rnn_backward takes as dh_out


def readout(h, v, c, y, *, loss):  # [T, d], [k, d], [k], [T, k] (mse) or [T] class ids (cross_entropy) -> Readout
    """Read z_t = V h_t + c at every step and return the summed loss with its error terms y_hat - y.

    mse: y_hat = z, L_t = 1/2 ||y_hat_t - y_t||^2.  cross_entropy: y_hat = softmax(z), L_t = -log y_hat_t[y_t].
    Both losses give the same error term dL_t/dz_t = y_hat_t - y_t (y one-hot for cross-entropy).
    """
    if loss not in LOSSES:
        raise ValueError(f"loss must be one of {LOSSES}, got {loss!r}")
    h = float_array("h", h, min_ndim=2)
    v = float_array("v", v, min_ndim=2)
    c = float_array("c", c)
    if h.ndim != 2 or v.ndim != 2 or v.shape[1] != h.shape[1]:
        raise ValueError(f"h must be [T, d] and v [k, d] with the same d, got shapes {h.shape} and {v.shape}")
    k = v.shape[0]
    if c.shape != (k,):
        raise ValueError(f"c must be [k] = {(k,)}, got shape {c.shape}")
    z = h @ v.T + c
    if loss == "mse":
        target = float_array("y", y, min_ndim=2)
        if target.shape != z.shape:
            raise ValueError(f"y must be [T, k] = {z.shape} for mse, got shape {target.shape}")
        y_hat = z
        value = 0.5 * float(((y_hat - target) ** 2).sum())
    else:
        ids = np.asarray(y)
        if ids.shape != (h.shape[0],) or not np.issubdtype(ids.dtype, np.integer) or ids.min() < 0 or ids.max() >= k:
            raise ValueError(f"y must be [T] = {(h.shape[0],)} class ids in 0..{k - 1} for cross_entropy, got {y!r}")
        target = np.eye(k)[ids]
        y_hat = softmax(z)
        value = -float(np.log(y_hat[np.arange(len(ids)), ids]).sum())
    error = y_hat - target
    return Readout(loss=value, y_hat=y_hat, target=target, error=error, dh=error @ v)


def spectral_radius(w):  # [d, d] -> float
    """Return the largest absolute eigenvalue of a square matrix."""
    w = float_array("w", w, min_ndim=2)
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"w must be a square [d, d] matrix, got shape {w.shape}")
    return float(np.max(np.abs(np.linalg.eigvals(w))))


def spectral_norm(w):  # [d, d] -> float
    """Return ||W||, the largest singular value: the most W can stretch a unit vector."""
    w = float_array("w", w, min_ndim=2)
    if w.ndim != 2:
        raise ValueError(f"w must be a matrix, got shape {w.shape}")
    return float(np.linalg.norm(w, 2))


def recurrent_matrix(d, radius, *, seed):  # -> [d, d]
    """Return a random Gaussian d x d matrix rescaled so that its spectral radius equals radius."""
    d = positive_int("d", d)
    radius = float(radius)
    if not np.isfinite(radius) or radius <= 0:
        raise ValueError(f"radius must be a finite number > 0, got {radius}")
    w = np.random.default_rng(seed).normal(size=(d, d)) / np.sqrt(d)
    return w * (radius / spectral_radius(w))


def gradient_norms(steps, radius, *, d, d_in, input_scale, seed, activation="tanh"):  # -> [steps]
    """Run an RNN for steps steps with L = c . h_T (c a unit readout); return ||dL/dh_k|| for k = 1..steps.

    Everything is drawn from one seed: W (rescaled to the given spectral radius), U, the
    inputs (normal, times input_scale) and c. b and h0 are zero. The norms are measured by
    rnn_backward, not read off a formula.
    """
    steps = positive_int("steps", steps)
    d, d_in = positive_int("d", d), positive_int("d_in", d_in)
    input_scale = float(input_scale)
    if not np.isfinite(input_scale) or input_scale < 0:
        raise ValueError(f"input_scale must be a finite number >= 0, got {input_scale}")
    w = recurrent_matrix(d, radius, seed=seed)
    rng = np.random.default_rng([seed, 1])
    u = rng.normal(size=(d, d_in)) / np.sqrt(d_in)
    c = rng.normal(size=d)
    c /= np.linalg.norm(c)
    x = input_scale * np.random.default_rng([seed, 2]).normal(size=(steps, d_in))
    b = np.zeros(d)
    h = rnn_forward(x, w, u, b, activation=activation)
    dh_out = np.zeros_like(h)
    dh_out[-1] = c  # the loss reads only the last state
    grads = rnn_backward(x, h, w, u, b, dh_out, activation=activation)
    return np.linalg.norm(grads.h, axis=1)

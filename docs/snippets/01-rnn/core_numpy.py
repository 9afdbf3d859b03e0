import numpy as np


def rnn_forward(x, w, u, b):  # [T, d_in], [d, d], [d, d_in], [d] -> [T, d]; h_0 = 0
    h, out = np.zeros(w.shape[0]), []
    for x_t in x:  # step t needs step t-1: this loop is the serial wall
        h = np.tanh(w @ h + u @ x_t + b)
        out.append(h)
    return np.array(out)


def rnn_backward(x, h, w, u, dh_out):  # ..., [T, d] direct dL_t/dh_t -> (dW, dU, db)
    dw, du, db, carry = np.zeros_like(w), np.zeros_like(u), np.zeros(w.shape[0]), np.zeros(w.shape[0])
    for t in reversed(range(len(x))):
        delta = (dh_out[t] + carry) * (1 - h[t] ** 2)  # dL/d(pre-activation) at step t
        prev = h[t - 1] if t > 0 else np.zeros_like(h[t])
        dw, du, db = dw + np.outer(delta, prev), du + np.outer(delta, x[t]), db + delta
        carry = w.T @ delta  # one Jacobian diag(1 - h_t^2) W, passed back
    return dw, du, db


def cross_entropy_error(z, y):  # [T, k] logits, [T] class ids -> [T, k] = softmax(z) - one_hot(y)
    p = np.exp(z - z.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    return p - np.eye(z.shape[1])[y]


rng = np.random.default_rng(0)
x, w, u, b = rng.normal(size=(40, 3)), rng.normal(size=(8, 8)) * 0.2, rng.normal(size=(8, 3)), np.zeros(8)
v, y = rng.normal(size=(5, 8)), rng.integers(0, 5, size=40)
h = rnn_forward(x, w, u, b)
dh_out = np.zeros_like(h)
dh_out[-1] = cross_entropy_error(h[-1:] @ v.T, y[-1:])[0] @ v  # only the last step has a loss
carry, norms = dh_out[-1], []
for t in reversed(range(len(x))):  # ||dL/dh_t|| walking back from the loss
    norms.append(np.linalg.norm(carry))
    carry = w.T @ (carry * (1 - h[t] ** 2))
print(f"||dL/dh_40|| = {norms[0]:.2e}, ||dL/dh_1|| = {norms[-1]:.2e}")

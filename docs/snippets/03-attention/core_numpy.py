import numpy as np


def softmax(s):  # [..., n] -> [..., n]
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def additive_score(q, k, w_q, w_k, v):  # [n_q, d_q], [n_k, d_k], [d_q, a], [d_k, a], [a] -> [n_q, n_k]
    return np.tanh((q @ w_q)[:, None, :] + (k @ w_k)[None, :, :]) @ v


def dot_score(q, k):  # [n_q, d], [n_k, d] -> [n_q, n_k]
    return q @ k.T


def bilinear_score(q, k, w):  # [n_q, d_q], [n_k, d_k], [d_q, d_k] -> [n_q, n_k]
    return q @ w @ k.T


def scaled_dot_score(q, k):  # [n_q, d], [n_k, d] -> [n_q, n_k]
    return q @ k.T / np.sqrt(q.shape[-1])


def self_attention(x, w_q, w_k, w_v):  # [n, d], [d, d_k], [d, d_k], [d, d_v] -> [n, d_v]
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    return softmax(scaled_dot_score(q, k)) @ v


rng = np.random.default_rng(0)
q, k = rng.standard_normal((20_000, 256)), rng.standard_normal((20_000, 256))
dots = np.einsum("nd,nd->n", q, k)
print(f"d_k = 256: Var(q·k) = {dots.var():.1f}, Var(q·k/√d_k) = {(dots / 16).var():.2f}")

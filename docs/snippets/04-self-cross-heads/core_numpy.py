import numpy as np


def softmax(s):  # [..., n] -> [..., n]
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def split_heads(x, h):  # [n, h * d_h] -> [h, n, d_h]
    n, width = x.shape
    return x.reshape(n, h, width // h).transpose(1, 0, 2)


def merge_heads(x):  # [h, n, d_h] -> [n, h * d_h]
    h, n, d_h = x.shape
    return x.transpose(1, 0, 2).reshape(n, h * d_h)


def multi_head_attention(x_q, x_kv, w_q, w_k, w_v, w_o, h):  # [n_q, d], [n_k, d], ..., h -> [n_q, d_out]
    q, k, v = split_heads(x_q @ w_q, h), split_heads(x_kv @ w_k, h), split_heads(x_kv @ w_v, h)
    weights = softmax(q @ k.transpose(0, 2, 1) / np.sqrt(q.shape[-1]))  # [h, n_q, n_k]: one table per head
    return merge_heads(weights @ v) @ w_o


def sinusoidal_encoding(n, d):  # -> [n, d], d even
    angle = np.arange(n)[:, None] / 10_000 ** (np.arange(0, d, 2) / d)[None, :]
    pe = np.empty((n, d))
    pe[:, 0::2], pe[:, 1::2] = np.sin(angle), np.cos(angle)
    return pe


rng = np.random.default_rng(0)
x = rng.normal(size=(3, 8))
w_q, w_k, w_v, w_o = (rng.normal(size=(8, 8)) for _ in range(4))
block = lambda x: multi_head_attention(x, x, w_q, w_k, w_v, w_o, h=2)  # noqa: E731
swap = [2, 1, 0]
print(f"without positions: {np.abs(block(x[swap]) - block(x)[swap]).max():.2f}")  # 0.00: only rounding moved
pe = sinusoidal_encoding(3, 8)
print(f"with positions:    {np.abs(block(x[swap] + pe) - block(x + pe)[swap]).max():.2f}")

import numpy as np


def causal_mask(n):  # -> [n, n] bool; True: query i may read key j
    return np.tril(np.ones((n, n), dtype=bool))


def masked_softmax(scores, mask):  # [n_q, n_k], [n_q, n_k] -> [n_q, n_k]
    z = np.where(mask, scores, -np.inf)  # closed keys get −∞, not 0
    z = z - z.max(axis=-1, keepdims=True)  # row max first: large scores never overflow
    e = np.exp(z)  # exp(−∞) = 0 exactly
    return e / e.sum(axis=-1, keepdims=True)


def attention(q, k, v, mask):  # [n_q, d_k], [n_k, d_k], [n_k, d_v], [n_q, n_k] -> [n_q, d_v]
    scores = q @ k.T / np.sqrt(q.shape[-1])
    return masked_softmax(scores, mask) @ v


scores = np.array([[1.2, 3.4, 0.8], [2.1, 0.5, 1.9], [0.4, 1.7, 2.2]])
print(np.round(masked_softmax(scores, causal_mask(3)), 3))

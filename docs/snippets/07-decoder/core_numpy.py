import numpy as np


def causal_mask(n):  # -> [n, n] bool; True: query i may read key j
    return np.tril(np.ones((n, n), dtype=bool))  # itself and everything before it


def self_attention(x, w_q, w_k, w_v, mask):  # [n, d], [d, d_k], [d, d_k], [d, d_v], [n, n] -> [n, d_v]
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    s = np.where(mask, q @ k.T / np.sqrt(k.shape[-1]), -np.inf)
    w = np.exp(s - s.max(axis=-1, keepdims=True))  # exp(−∞) = 0 exactly: a closed key gets no weight
    return w / w.sum(axis=-1, keepdims=True) @ v


def next_token_pairs(tokens, bos=None):  # [n] -> ([m], [m]); m = n - 1, or n with a bos
    inputs = [bos] + list(tokens[:-1]) if bos is not None else list(tokens[:-1])
    targets = list(tokens) if bos is not None else list(tokens[1:])
    return inputs, targets  # targets[i] is the token after inputs[i]


def leak(x, changed_row, new_row, w, mask):  # -> [n] max |Δ| of each output row
    y = x.copy()
    y[changed_row] = new_row
    return np.abs(self_attention(x, *w, mask) - self_attention(y, *w, mask)).max(axis=1)


print(next_token_pairs("the cat sat on the mat".split()))
rng = np.random.default_rng(0)
n, d = 6, 8
x, w, new = rng.normal(size=(n, d)), [rng.normal(size=(d, 4)) for _ in range(3)], rng.normal(size=d)
print("causal mask: rows before the change moved < 1e-12:", leak(x, n - 1, new, w, causal_mask(n))[:-1].max() < 1e-12)
print(
    "full mask:   rows before the change moved > 1e-3: ",
    leak(x, n - 1, new, w, np.ones((n, n), bool))[:-1].min() > 1e-3,
)

import numpy as np


def rotate(x, positions, theta=10_000.0):  # [n, d] -> [n, d]: turn each pair (2i, 2i+1) by position * theta^(-2i/d)
    angle = positions[:, None] * theta ** (-np.arange(0, x.shape[1], 2) / x.shape[1])  # [n, d/2]
    cos, sin, even, odd = np.cos(angle), np.sin(angle), x[:, 0::2], x[:, 1::2]
    return np.stack([even * cos - odd * sin, even * sin + odd * cos], axis=-1).reshape(x.shape)


rng = np.random.default_rng(0)
q, k = rng.standard_normal((2, 6, 8))  # 6 tokens, one head of size 8
p = np.arange(6.0)
scores = rotate(q, p) @ rotate(k, p).T
shifted = rotate(q, p + 3) @ rotate(k, p + 3).T  # every position moved by 3, as unshifted left padding does
print("largest score change from the shift < 1e-12:", bool(np.abs(shifted - scores).max() < 1e-12))

window, sinks = 2, 1  # each query reads its last 2 keys, and key 0 always
i, j = np.arange(6)[:, None], np.arange(6)[None, :]
mask = (j <= i) & ((j > i - window) | (j < sinks))  # mask[i, j] True: query i may read key j
print(mask.astype(int))

import numpy as np


def softmax(x):  # [..., n] -> [..., n]
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def bahdanau(s, h, w, u, v):  # [n_t, d_s], [n_s, d_h], [d_a, d_s], [d_a, d_h], [d_a] -> ([n_t, d_h], [n_t, n_s])
    scores = np.tanh((s @ w.T)[:, None, :] + (h @ u.T)[None, :, :]) @ v  # e_ij = v . tanh(W s_i + U h_j)
    alpha = softmax(scores)  # each decoder step: weights over j
    return alpha @ h, alpha  # c_i = sum_j alpha_ij h_j


rng = np.random.default_rng(2)
s, h = rng.normal(size=(2, 3)), rng.normal(size=(4, 5))  # 2 decoder states, 4 encoder states
w, u, v = rng.normal(size=(6, 3)), rng.normal(size=(6, 5)), rng.normal(size=6)
context, alpha = bahdanau(s, h, w, u, v)
print(np.round(alpha, 3))

import numpy as np
import torch


def bahdanau(s, h, w, u, v):  # [n_t, d_s], [n_s, d_h], [d_a, d_s], [d_a, d_h], [d_a] -> ([n_t, d_h], [n_t, n_s])
    scores = torch.tanh((s @ w.T)[:, None, :] + (h @ u.T)[None, :, :]) @ v  # e_ij = v . tanh(W s_i + U h_j)
    alpha = scores.softmax(dim=-1)  # each decoder step: weights over j
    return alpha @ h, alpha  # c_i = sum_j alpha_ij h_j


rng = np.random.default_rng(2)  # the numpy tab's inputs, drawn in the same order
s, h = rng.normal(size=(2, 3)), rng.normal(size=(4, 5))  # 2 decoder states, 4 encoder states
w, u, v = rng.normal(size=(6, 3)), rng.normal(size=(6, 5)), rng.normal(size=6)
context, alpha = bahdanau(*map(torch.from_numpy, (s, h, w, u, v)))
print(np.round(alpha.numpy(), 3))

import math

import numpy as np
import torch
import torch.nn.functional as F


def additive_score(q, k, w_q, w_k, v):  # [n_q, d_q], [n_k, d_k], [d_q, a], [d_k, a], [a] -> [n_q, n_k]
    return torch.tanh((q @ w_q)[:, None, :] + (k @ w_k)[None, :, :]) @ v


def dot_score(q, k):  # [n_q, d], [n_k, d] -> [n_q, n_k]
    return q @ k.T


def bilinear_score(q, k, w):  # [n_q, d_q], [n_k, d_k], [d_q, d_k] -> [n_q, n_k]
    return q @ w @ k.T


def scaled_dot_score(q, k):  # [n_q, d], [n_k, d] -> [n_q, n_k]
    return q @ k.T / math.sqrt(q.shape[-1])


def self_attention(x, w_q, w_k, w_v):  # [n, d], [d, d_k], [d, d_k], [d, d_v] -> [n, d_v]
    return F.scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v)  # its default scale is 1/sqrt(d_k)


def var(t):  # [n] -> scalar; numpy's var divides by n, torch's by n - 1 unless correction=0
    return t.var(correction=0)


rng = np.random.default_rng(0)  # the numpy tab's inputs, drawn in the same order
q, k = (torch.from_numpy(rng.standard_normal((20_000, 256))) for _ in range(2))
dots = (q * k).sum(dim=-1)
print(f"d_k = 256: Var(q·k) = {var(dots):.1f}, Var(q·k/√d_k) = {var(dots / 16):.2f}")

import numpy as np
import torch
import torch.nn.functional as F


def split_heads(x, h):  # [n, h * d_h] -> [h, n, d_h]
    n, width = x.shape
    return x.view(n, h, width // h).transpose(0, 1)


def merge_heads(x):  # [h, n, d_h] -> [n, h * d_h]
    h, n, d_h = x.shape
    return x.transpose(0, 1).reshape(n, h * d_h)


def multi_head_attention(x_q, x_kv, w_q, w_k, w_v, w_o, h):  # [n_q, d], [n_k, d], ..., h -> [n_q, d_out]
    # nn.MultiheadAttention computes the same with weights stored [out, in]:
    # in_proj_weight = cat([w_q.T, w_k.T, w_v.T]).
    q, k, v = split_heads(x_q @ w_q, h), split_heads(x_kv @ w_k, h), split_heads(x_kv @ w_v, h)
    return merge_heads(F.scaled_dot_product_attention(q, k, v)) @ w_o  # each head: its own weights table


def sinusoidal_encoding(n, d):  # -> [n, d], d even
    f64 = torch.float64  # torch.arange's floats would be float32
    angle = torch.arange(n, dtype=f64)[:, None] / 10_000 ** (torch.arange(0, d, 2, dtype=f64) / d)[None, :]
    pe = torch.empty(n, d, dtype=f64)
    pe[:, 0::2], pe[:, 1::2] = torch.sin(angle), torch.cos(angle)
    return pe


rng = np.random.default_rng(0)  # the numpy tab's inputs, drawn in the same order
x = torch.from_numpy(rng.normal(size=(3, 8)))
w_q, w_k, w_v, w_o = (torch.from_numpy(rng.normal(size=(8, 8))) for _ in range(4))
block = lambda x: multi_head_attention(x, x, w_q, w_k, w_v, w_o, h=2)  # noqa: E731
swap = [2, 1, 0]
print(f"without positions: {(block(x[swap]) - block(x)[swap]).abs().max():.2f}")  # 0.00: only rounding moved
pe = sinusoidal_encoding(3, 8)
print(f"with positions:    {(block(x[swap] + pe) - block(x + pe)[swap]).abs().max():.2f}")

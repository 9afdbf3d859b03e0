import numpy as np
import torch
import torch.nn.functional as F


def enc_kv(enc_out, layers):  # [m, d], [(w_k, w_v)] * L -> [([m, d_k], [m, d_v])] * L
    return [(enc_out @ w_k, enc_out @ w_v) for w_k, w_v in layers]  # once, before the first step


def cross_attention(x, kv, w_q):  # [n, d], ([m, d_k], [m, d_v]), [d, d_k] -> [n, d_v]
    k, v = kv
    return F.scaled_dot_product_attention(x @ w_q, k, v)  # no attn_mask: a full rectangle, the source is complete


rng = np.random.default_rng(0)  # the numpy tab's inputs, drawn in the same order
m, n, d, n_layers = 7, 5, 8, 6
enc_out = torch.from_numpy(rng.normal(size=(m, d)))  # the encoder's output: fixed once encoding ends
layers = [
    (torch.from_numpy(rng.normal(size=(d, 4))), torch.from_numpy(rng.normal(size=(d, 4)))) for _ in range(n_layers)
]
kv = enc_kv(enc_out, layers)  # n_layers projections, however many steps follow
w_q, x = torch.from_numpy(rng.normal(size=(d, 4))), torch.from_numpy(rng.normal(size=(n, d)))
short, longer = cross_attention(x[:3], kv[0], w_q), cross_attention(x, kv[0], w_q)
print(
    "projections:",
    len(kv),
    "  old rows unchanged as the target grows (< 1e-12):",
    bool((short - longer[:3]).abs().max() < 1e-12),
)

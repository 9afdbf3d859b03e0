import numpy as np
import torch
import torch.nn.functional as F


def causal_mask(n):  # -> [n, n] bool; True: query i may read key j
    return torch.ones(n, n, dtype=torch.bool).tril()


def masked_softmax(scores, mask):  # [n_q, n_k], [n_q, n_k] -> [n_q, n_k]
    # A row with no open key: NaN here, as in numpy; SDPA below returns zeros for it instead (torch 2.13).
    return scores.masked_fill(~mask, float("-inf")).softmax(dim=-1)  # closed keys get −∞, not 0


def attention(q, k, v, mask):  # [n_q, d_k], [n_k, d_k], [n_k, d_v], [n_q, n_k] -> [n_q, d_v]
    # SDPA's bool attn_mask is ours (True = may attend); nn.MultiheadAttention's means "may not": pass it ~mask.
    return F.scaled_dot_product_attention(q, k, v, attn_mask=mask)


scores = torch.tensor([[1.2, 3.4, 0.8], [2.1, 0.5, 1.9], [0.4, 1.7, 2.2]], dtype=torch.float64)
print(np.round(masked_softmax(scores, causal_mask(3)).numpy(), 3))

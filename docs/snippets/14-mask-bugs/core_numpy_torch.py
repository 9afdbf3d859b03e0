import numpy as np
import torch
import torch.nn.functional as F


def attention(x, mask):  # [n, d], [n, n] bool -> [n, d]; q = k = v = x
    # SDPA's bool attn_mask: True = may read (nn.MultiheadAttention's True means the opposite).
    return F.scaled_dot_product_attention(x, x, x, attn_mask=mask)


def leaks(f, n=6, d=4, seed=0):  # -> [(i, j)]: earlier output y[i] moved when the later x[j] changed
    x = torch.from_numpy(np.random.default_rng(seed).standard_normal((n, d)))
    y, found = f(x), []
    for j in range(1, n):
        x2 = x.clone()
        x2[j] += 1.0
        moved = (f(x2) - y).abs().amax(dim=1)[:j] > 1e-9  # far above rounding, far below a real read
        found += [(int(i), j) for i in torch.nonzero(moved).flatten()]
    return found


causal = torch.ones(6, 6, dtype=torch.bool).tril()
print("tril:", leaks(lambda x: attention(x, causal)))
print("transposed (triu):", len(leaks(lambda x: attention(x, causal.T))), "leaks")

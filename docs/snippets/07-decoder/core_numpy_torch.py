import numpy as np
import torch
import torch.nn.functional as F


def causal_mask(n):  # -> [n, n] bool; True: query i may read key j
    return torch.ones(n, n, dtype=torch.bool).tril()  # itself and everything before it


def self_attention(x, w_q, w_k, w_v, mask):  # [n, d], [d, d_k], [d, d_k], [d, d_v], [n, n] -> [n, d_v]
    # SDPA's bool attn_mask: True = may attend, as ours; for a square causal mask, is_causal=True does the same.
    return F.scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, attn_mask=mask)


def next_token_pairs(tokens, bos=None):  # [n] -> ([m], [m]); m = n - 1, or n with a bos
    inputs = [bos] + list(tokens[:-1]) if bos is not None else list(tokens[:-1])
    targets = list(tokens) if bos is not None else list(tokens[1:])
    return inputs, targets  # targets[i] is the token after inputs[i]


def leak(x, changed_row, new_row, w, mask):  # -> [n] max |Δ| of each output row
    y = x.clone()
    y[changed_row] = new_row
    return (self_attention(x, *w, mask) - self_attention(y, *w, mask)).abs().amax(dim=1)


print(next_token_pairs("the cat sat on the mat".split()))
rng = np.random.default_rng(0)  # the numpy tab's inputs, drawn in the same order
n, d = 6, 8
x, w, new = rng.normal(size=(n, d)), [rng.normal(size=(d, 4)) for _ in range(3)], rng.normal(size=d)
x, w, new = torch.from_numpy(x), [torch.from_numpy(m) for m in w], torch.from_numpy(new)
print(
    "causal mask: rows before the change moved < 1e-12:",
    bool(leak(x, n - 1, new, w, causal_mask(n))[:-1].max() < 1e-12),
)
print(
    "full mask:   rows before the change moved > 1e-3: ",
    bool(leak(x, n - 1, new, w, torch.ones(n, n, dtype=torch.bool))[:-1].min() > 1e-3),
)

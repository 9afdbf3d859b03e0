import numpy as np
import torch
import torch.nn.functional as F


def decode_step(x_new, k_cache, v_cache, w_q, w_k, w_v):  # [d], [t, d_k], [t, d_v] -> ([d_v], [t+1, d_k], [t+1, d_v])
    q = (x_new @ w_q)[None]  # [1, d_k]: only the new token asks
    k_cache = torch.cat([k_cache, (x_new @ w_k)[None]])  # its key and value join the cache,
    v_cache = torch.cat([v_cache, (x_new @ w_v)[None]])  # the old rows stay as they are
    # No mask: every cached key is in the past. is_causal=True would align top-left
    # and let this one query read key 0 only.
    return F.scaled_dot_product_attention(q, k_cache, v_cache)[0], k_cache, v_cache


rng = np.random.default_rng(0)  # the numpy tab's inputs, drawn in the same order
n, d, d_k, d_v, vocab = 5, 8, 4, 4, 10
w_q, w_k, w_v = (torch.from_numpy(rng.normal(size=(d, m))) for m in (d_k, d_k, d_v))
x = torch.from_numpy(rng.normal(size=(n, d)))
w_out = torch.from_numpy(rng.normal(size=(d_v, vocab)))  # the output layer: one score per token id
k_cache, v_cache, cached = torch.zeros(0, d_k, dtype=x.dtype), torch.zeros(0, d_v, dtype=x.dtype), []
for x_new in x:  # feed the rows in one at a time
    out, k_cache, v_cache = decode_step(x_new, k_cache, v_cache, w_q, w_k, w_v)
    cached.append(out @ w_out)  # [vocab]: this step's next-token logits
cached = torch.stack(cached)  # [n, vocab]

full = (
    F.scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, is_causal=True) @ w_out
)  # from scratch: square, so is_causal is right
print(
    "cached rows:",
    k_cache.shape[0],
    "  logits at every step, max |cached - recomputed| < 1e-12:",
    bool((cached - full).abs().max() < 1e-12),
)
print("greedy next token ids, cached:", cached.argmax(-1).tolist(), "  recomputed:", full.argmax(-1).tolist())

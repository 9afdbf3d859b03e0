import numpy as np


def decode_step(x_new, k_cache, v_cache, w_q, w_k, w_v):  # [d], [t, d_k], [t, d_v] -> ([d_v], [t+1, d_k], [t+1, d_v])
    q = x_new @ w_q  # only the new token asks; old queries are never read again
    k_cache = np.vstack([k_cache, x_new @ w_k])  # its key and value join the cache,
    v_cache = np.vstack([v_cache, x_new @ w_v])  # the old rows stay as they are
    s = k_cache @ q / np.sqrt(q.shape[-1])  # one row of scores: the new query against every key
    w = np.exp(s - s.max())  # no mask: every cached key is in the past
    return (w / w.sum()) @ v_cache, k_cache, v_cache


rng = np.random.default_rng(0)
n, d, d_k, d_v, vocab = 5, 8, 4, 4, 10
w_q, w_k, w_v = rng.normal(size=(d, d_k)), rng.normal(size=(d, d_k)), rng.normal(size=(d, d_v))
x = rng.normal(size=(n, d))
w_out = rng.normal(size=(d_v, vocab))  # the output layer: one score per token id
k_cache, v_cache, cached = np.zeros((0, d_k)), np.zeros((0, d_v)), []
for x_new in x:  # feed the rows in one at a time
    out, k_cache, v_cache = decode_step(x_new, k_cache, v_cache, w_q, w_k, w_v)
    cached.append(out @ w_out)  # [vocab]: this step's next-token logits
cached = np.array(cached)  # [n, vocab]

s = (x @ w_q) @ (x @ w_k).T / np.sqrt(d_k)  # the same, from scratch, under a causal mask
s = np.where(np.tril(np.ones((n, n), bool)), s, -np.inf)
p = np.exp(s - s.max(-1, keepdims=True))
full = (p / p.sum(-1, keepdims=True) @ (x @ w_v)) @ w_out  # [n, vocab]: every position's logits at once
print(
    "cached rows:",
    k_cache.shape[0],
    "  logits at every step, max |cached - recomputed| < 1e-12:",
    np.abs(cached - full).max() < 1e-12,
)
print("greedy next token ids, cached:", cached.argmax(-1).tolist(), "  recomputed:", full.argmax(-1).tolist())

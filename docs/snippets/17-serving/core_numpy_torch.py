import numpy as np
import torch
import torch.nn.functional as F


def prefill(q, k, v, chunk, bottom_right):  # [n, d] each -> [n, d]: the prompt in chunks, each reading every key so far
    outs = []
    for s in range(0, len(q), chunk):
        qc, kc, vc = q[s : s + chunk], k[: s + chunk], v[: s + chunk]
        if bottom_right:  # SDPA's bool attn_mask: True = may read; tril's diagonal moves the triangle to the right
            mask = torch.ones(len(qc), len(kc), dtype=torch.bool).tril(diagonal=len(kc) - len(qc))
            outs.append(F.scaled_dot_product_attention(qc, kc, vc, attn_mask=mask))
        else:  # is_causal=True aligns top-left: query r of the chunk reads keys 0 .. r only
            outs.append(F.scaled_dot_product_attention(qc, kc, vc, is_causal=True))
    return torch.cat(outs)


q, k, v = torch.from_numpy(np.random.default_rng(0).standard_normal((3, 12, 8)))
one_shot = prefill(q, k, v, 12, True)  # one chunk: the whole prompt, n_q == n_k
for chunk in (1, 4, 12):
    right = (prefill(q, k, v, chunk, True) - one_shot).abs().max().item()
    left = (prefill(q, k, v, chunk, False) - one_shot).abs().max().item()
    print(f"chunk {chunk}: bottom-right equals one-shot: {right < 1e-12}, top-left max error {left:.1f}")

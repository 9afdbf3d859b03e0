import numpy as np
import torch
import torch.nn.functional as F


def masks_for(machine, n, m=None):  # -> ([n, n] self mask, [n, m] cross mask or None)
    if machine == "encoder":
        return torch.ones(n, n, dtype=torch.bool), None  # no mask
    causal = torch.ones(n, n, dtype=torch.bool).tril()
    if machine == "decoder":
        return causal, None  # causal
    if machine == "encoder-decoder":
        return causal, torch.ones(n, m, dtype=torch.bool)  # causal + a full cross rectangle
    raise ValueError(f"machine must be encoder, decoder or encoder-decoder, got {machine!r}")


def reads(f, x):  # f: [n, d] -> [n, d_out]; -> [n, n] bool: does output i move when input j changes?
    base, moved = f(x), torch.zeros(len(x), len(x), dtype=torch.bool)
    for j in range(len(x)):
        y = x.clone()
        y[j] += 1.0  # nudge one input row
        moved[:, j] = (f(y) - base).abs().amax(dim=1) > 1e-12
    return moved


def attention_layer(mask, w_q, w_k, w_v):  # -> f: [n, d] -> [n, d_v]
    # SDPA's bool attn_mask: True = may attend, as ours (nn.MultiheadAttention's True means "may not").
    return lambda x: F.scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, attn_mask=mask)


rng = np.random.default_rng(0)  # the numpy tab's inputs, drawn in the same order
n, d = 5, 8
x, w = torch.from_numpy(rng.normal(size=(n, d))), [torch.from_numpy(rng.normal(size=(d, 4))) for _ in range(3)]
for machine in ("encoder", "decoder"):
    self_mask, _ = masks_for(machine, n)
    print(machine, "- measured reads equal the mask:", torch.equal(reads(attention_layer(self_mask, *w), x), self_mask))

import numpy as np
import torch
import torch.nn.functional as F


def window_mask(n, w, sinks=0):  # -> [n, n] bool; True: query i may read key j (SDPA's bool mask means the same)
    i, j = torch.arange(n)[:, None], torch.arange(n)[None, :]
    return (j <= i) & ((i - j < w) | (j < sinks))  # the last w keys, and the first sinks keys for good


def ring_decode(q, k, v, w, sinks=0):  # one position at a time through sinks + w slots -> [n, d]
    slots_k, slots_v = (
        torch.zeros(sinks + w, k.shape[1], dtype=k.dtype),
        torch.zeros(sinks + w, v.shape[1], dtype=v.dtype),
    )
    held, out = torch.zeros(sinks + w, dtype=torch.bool), []
    for t in range(len(q)):
        s = t if t < sinks else sinks + t % w  # position t overwrites t - w, which just left the window
        slots_k[s], slots_v[s], held[s] = k[t], v[t], True
        out.append(F.scaled_dot_product_attention(q[t : t + 1], slots_k[held], slots_v[held])[0])  # every held key
    return torch.stack(out)


rng = np.random.default_rng(0)  # the numpy tab's inputs, drawn in the same order
q, k, v = map(torch.from_numpy, rng.normal(size=(3, 40, 8)))
for sinks in (0, 2):
    full = F.scaled_dot_product_attention(q, k, v, attn_mask=window_mask(40, 8, sinks))
    gap = (ring_decode(q, k, v, 8, sinks) - full).abs().max().item()
    print(f"sinks={sinks}: 40 positions through {sinks + 8} slots, ring == recompute: {gap < 1e-12}")

import numpy as np
import torch
import torch.nn.functional as F


def attention(x, is_causal):  # [n, d], bool -> [n, d]; q = k = v = x
    return F.scaled_dot_product_attention(x, x, x, is_causal=is_causal)  # is_causal: the square causal mask


def image_prefix_model(patches, text, proj):  # [p, d], [t, d], [d, d] -> [p + t, d]
    sensor = attention(patches, is_causal=False)  # the encoder: every patch reads every patch
    seq = torch.cat([sensor @ proj, text])  # projected image first, then the text
    return attention(seq, is_causal=True)  # the decoder: one causal mask over both


def image_prefix_reads(patches, text, proj):  # -> [p + t, p + t] bool: output i moved when input j was nudged
    base = image_prefix_model(patches, text, proj)
    reads = torch.zeros(len(base), len(base), dtype=torch.bool)
    for j in range(len(base)):
        p, t = patches.clone(), text.clone()
        (p[j] if j < len(p) else t[j - len(p)])[:] += 1.0
        reads[:, j] = (image_prefix_model(p, t, proj) - base).abs().amax(dim=1) > 1e-9
    return reads


rng = np.random.default_rng(0)  # the numpy tab's inputs, drawn in the same order
patches, text, proj = rng.normal(size=(4, 8)), rng.normal(size=(5, 8)), rng.normal(size=(8, 8)) / np.sqrt(8)
reads = image_prefix_reads(*map(torch.from_numpy, (patches, text, proj)))
print(reads.int().numpy())  # rows: outputs (4 patches, 5 text tokens); columns: inputs

import numpy as np


def attention(x, mask):  # [n, d], [n, n] bool -> [n, d]; mask[i, j] True: i may read j
    scores = np.where(mask, x @ x.T / np.sqrt(x.shape[1]), -np.inf)
    w = np.exp(scores - scores.max(axis=1, keepdims=True))
    return (w / w.sum(axis=1, keepdims=True)) @ x


def image_prefix_model(patches, text, proj):  # [p, d], [t, d], [d, d] -> [p + t, d]
    p, n = len(patches), len(patches) + len(text)
    sensor = attention(patches, np.ones((p, p), bool))  # the encoder: every patch reads every patch
    seq = np.vstack([sensor @ proj, text])  # projected image first, then the text
    return attention(seq, np.tril(np.ones((n, n), bool)))  # the decoder: one causal mask over both


def image_prefix_reads(patches, text, proj):  # -> [p + t, p + t] bool: output i moved when input j was nudged
    base = image_prefix_model(patches, text, proj)
    reads = np.zeros((len(base), len(base)), bool)
    for j in range(len(base)):
        p, t = patches.copy(), text.copy()
        (p[j] if j < len(p) else t[j - len(p)])[:] += 1.0
        reads[:, j] = np.abs(image_prefix_model(p, t, proj) - base).max(axis=1) > 1e-9
    return reads


rng = np.random.default_rng(0)
patches, text, proj = rng.normal(size=(4, 8)), rng.normal(size=(5, 8)), rng.normal(size=(8, 8)) / np.sqrt(8)
print(image_prefix_reads(patches, text, proj).astype(int))  # rows: outputs (4 patches, 5 text tokens); columns: inputs

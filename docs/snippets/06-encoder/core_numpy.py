import numpy as np


def full_mask(n):  # -> [n, n] bool; True: query i may read key j
    return np.ones((n, n), dtype=bool)  # an encoder closes nothing


def self_attention(x, w_q, w_k, w_v, mask):  # [n, d], [d, d_k], [d, d_k], [d, d_v], [n, n] -> [n, d_v]
    q, k, v = x @ w_q, x @ w_k, x @ w_v
    s = np.where(mask, q @ k.T / np.sqrt(k.shape[-1]), -np.inf)
    w = np.exp(s - s.max(axis=-1, keepdims=True))
    return w / w.sum(axis=-1, keepdims=True) @ v


def mask_tokens(tokens, rate=0.15, seed=0, vocab=None):  # [n] words -> [n] words
    rng = np.random.default_rng(seed)
    vocab = sorted(set(tokens)) if vocab is None else list(vocab)
    picked = sorted(rng.permutation(len(tokens))[: max(1, round(rate * len(tokens)))])  # BERT picks 15 %
    out = list(tokens)
    for i in picked:  # then 80 % [MASK], 10 % a random word, 10 % unchanged
        u = rng.random()
        if u < 0.8:
            out[i] = "[MASK]"
        elif u < 0.9:
            out[i] = vocab[rng.integers(len(vocab))]
    return out


sentence = "the cat sat on the mat while the dog slept by the fire and the bird sang outside the window".split()
print(" ".join(mask_tokens(sentence)))

rng = np.random.default_rng(0)
x, w = rng.normal(size=(6, 8)), [rng.normal(size=(8, 4)) for _ in range(3)]
y = x.copy()
y[-1] = rng.normal(size=8)  # change only the last token
moved = np.abs(self_attention(x, *w, full_mask(6)) - self_attention(y, *w, full_mask(6))).max(axis=1)
print("the first token's output moved when the last one changed:", moved[0] > 1e-3)

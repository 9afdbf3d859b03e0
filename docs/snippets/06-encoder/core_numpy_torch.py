import numpy as np
import torch
import torch.nn.functional as F


def full_mask(n):  # -> [n, n] bool; True: query i may read key j
    return torch.ones(n, n, dtype=torch.bool)  # an encoder closes nothing (attn_mask=None does the same)


def self_attention(x, w_q, w_k, w_v, mask):  # [n, d], [d, d_k], [d, d_k], [d, d_v], [n, n] -> [n, d_v]
    return F.scaled_dot_product_attention(x @ w_q, x @ w_k, x @ w_v, attn_mask=mask)  # True: may attend, as ours


def mask_tokens(ids, mask_id, vocab_size, rate=0.15, generator=None):  # [n] token ids -> [n] token ids
    picked = torch.randperm(len(ids), generator=generator)[: max(1, round(rate * len(ids)))]  # BERT picks 15 %
    u = torch.rand(len(picked), generator=generator)  # then 80 % [MASK], 10 % a random word, 10 % unchanged
    out = ids.clone()
    out[picked[u < 0.8]] = mask_id
    swap = picked[(u >= 0.8) & (u < 0.9)]
    out[swap] = torch.randint(vocab_size, (len(swap),), generator=generator)
    return out


sentence = "the cat sat on the mat while the dog slept by the fire and the bird sang outside the window".split()
vocab = sorted(set(sentence)) + ["[MASK]"]  # ids: the sorted words, then [MASK]
ids = torch.tensor([vocab.index(t) for t in sentence])
# Seeded with 0 like the numpy tab, but torch's generator is not numpy's: other draws, so other positions and words.
masked = mask_tokens(ids, len(vocab) - 1, len(vocab) - 1, generator=torch.Generator().manual_seed(0))
print(" ".join(vocab[i] for i in masked))

rng = np.random.default_rng(0)  # the numpy tab's inputs, drawn in the same order
x, w = torch.from_numpy(rng.normal(size=(6, 8))), [torch.from_numpy(rng.normal(size=(8, 4))) for _ in range(3)]
y = x.clone()
y[-1] = torch.from_numpy(rng.normal(size=8))  # change only the last token
moved = (self_attention(x, *w, full_mask(6)) - self_attention(y, *w, full_mask(6))).abs().amax(dim=1)
print("the first token's output moved when the last one changed:", bool(moved[0] > 1e-3))

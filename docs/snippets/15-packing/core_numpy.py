import numpy as np


def attention(x, mask):  # [n, d], [n, n] bool -> [n, d]; q = k = v = x
    s = np.where(mask, x @ x.T / np.sqrt(x.shape[1]), -np.inf)  # closed keys get −∞
    w = np.exp(s - s.max(axis=1, keepdims=True))
    return w / w.sum(axis=1, keepdims=True) @ x


doc_ids = np.array([0, 0, 0, 1, 1, 1, 1, 2])  # three documents packed into one row
causal = np.tril(np.ones((8, 8), dtype=bool))
document = causal & (doc_ids[:, None] == doc_ids[None, :])  # the block-diagonal causal mask
cu_seqlens = np.concatenate([[0], np.cumsum(np.bincount(doc_ids))])  # what a varlen kernel gets instead
x = np.random.default_rng(0).standard_normal((8, 4))
by_doc = np.concatenate([attention(x[a:b], causal[: b - a, : b - a]) for a, b in zip(cu_seqlens, cu_seqlens[1:])])
print("cu_seqlens:", cu_seqlens.tolist())
print("one pass == document by document:", np.abs(attention(x, document) - by_doc).max() < 1e-12)
x2 = x.copy()
x2[1] += 1.0  # change a token of document 0
for name, mask in (("causal", causal), ("document", document)):
    moved = np.abs(attention(x2, mask) - attention(x, mask)).max(axis=1) > 1e-9
    print(f"{name}: outputs moved outside document 0:", np.flatnonzero(moved & (doc_ids != 0)).tolist())

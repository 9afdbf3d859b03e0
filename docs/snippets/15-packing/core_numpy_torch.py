import numpy as np
import torch
import torch.nn.functional as F


def attention(x, mask):  # [n, d], [n, n] bool -> [n, d]; q = k = v = x
    # SDPA's bool attn_mask: True = may read (nn.MultiheadAttention's True means the opposite).
    return F.scaled_dot_product_attention(x, x, x, attn_mask=mask)


doc_ids = torch.tensor([0, 0, 0, 1, 1, 1, 1, 2])  # three documents packed into one row
causal = torch.ones(8, 8, dtype=torch.bool).tril()
document = causal & (doc_ids[:, None] == doc_ids[None, :])  # the block-diagonal causal mask
cu_seqlens = torch.cat([torch.zeros(1, dtype=torch.long), torch.bincount(doc_ids).cumsum(0)])
x = torch.from_numpy(np.random.default_rng(0).standard_normal((8, 4)))
pairs = zip(cu_seqlens.tolist(), cu_seqlens[1:].tolist())
by_doc = torch.cat([F.scaled_dot_product_attention(x[a:b], x[a:b], x[a:b], is_causal=True) for a, b in pairs])
print("cu_seqlens:", cu_seqlens.tolist())
print("one pass == document by document:", bool((attention(x, document) - by_doc).abs().max() < 1e-12))
x2 = x.clone()
x2[1] += 1.0  # change a token of document 0
for name, mask in (("causal", causal), ("document", document)):
    moved = (attention(x2, mask) - attention(x, mask)).abs().amax(dim=1) > 1e-9
    print(f"{name}: outputs moved outside document 0:", torch.nonzero(moved & (doc_ids != 0)).flatten().tolist())

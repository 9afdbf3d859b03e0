import warnings

import torch
import torch.nn.functional as F
from torch.nn.attention.flex_attention import create_block_mask, flex_attention

torch.manual_seed(0)
doc_ids = torch.tensor([0, 0, 1, 1, 1])
n, d = doc_ids.numel(), 4
mask = (doc_ids[:, None] == doc_ids[None, :]) & torch.ones(n, n, dtype=torch.bool).tril()  # True: may read
q, k, v = torch.randn(3, 1, 1, n, d, dtype=torch.float64)  # [batch, heads, n, d] each

reference = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)  # SDPA's bool: True = may read
added = torch.zeros(n, n, dtype=torch.float64).masked_fill(~mask, float("-inf"))  # float: added to the scores
by_float = F.scaled_dot_product_attention(q, k, v, attn_mask=added)

mha = torch.nn.MultiheadAttention(d, 1, bias=False, batch_first=True, dtype=torch.float64)
with torch.no_grad():  # identity projections, so the layer is plain attention on q, k, v
    mha.in_proj_weight.copy_(torch.eye(d).repeat(3, 1))
    mha.out_proj.weight.copy_(torch.eye(d))
by_mha = mha(q[0], k[0], v[0], attn_mask=~mask, need_weights=False)[0]  # MHA's bool: True = blocked


def document(b, h, q_idx, kv_idx):  # FlexAttention's mask_mod: True = may read
    return (doc_ids[q_idx] == doc_ids[kv_idx]) & (kv_idx <= q_idx)


with warnings.catch_warnings():  # eager flex_attention on the CPU warns that it is not compiled
    warnings.simplefilter("ignore")
    block_mask = create_block_mask(document, None, None, n, n, device="cpu")
    by_flex = flex_attention(q, k, v, block_mask=block_mask)

for name, out in (("SDPA float", by_float), ("MultiheadAttention", by_mha[None]), ("flex_attention", by_flex)):
    print(f"{name}: largest |difference| from SDPA's bool mask: {(out - reference).abs().max().item():.1e}")

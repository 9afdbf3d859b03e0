"""Packed documents: several documents in one row, read one by one through cu_seqlens instead of a mask."""

import numpy as np

from primer._checks import float_array
from primer.attention import attention
from primer.masks import causal_mask, cu_seqlens, document_mask, full_mask
from primer.probe import movement
from primer.transformer import embed, logits, stack, validate_tokens


def varlen_attention(q, k, v, cu, *, causal=True):  # [n, d_k], [n, d_k], [n, d_v], [n_docs + 1] -> [n, d_v]
    """Attend document by document, slicing rows cu[d] .. cu[d + 1] - 1, as a varlen kernel does without a mask."""
    q, k, v = float_array("q", q, min_ndim=2), float_array("k", k, min_ndim=2), float_array("v", v, min_ndim=2)
    if q.ndim != 2 or k.shape[0] != q.shape[0] or v.shape[0] != q.shape[0]:
        raise ValueError(f"q, k and v must be [n, d] with the same n, got {q.shape}, {k.shape}, {v.shape}")
    cu = np.asarray(cu)
    if (
        cu.ndim != 1
        or cu.size < 2
        or cu.dtype.kind not in "iu"
        or cu[0] != 0
        or cu[-1] != q.shape[0]
        or (np.diff(cu) < 1).any()
    ):
        raise ValueError(
            f"cu must rise strictly from 0 to n={q.shape[0]} (the cumulative document lengths), got {cu.tolist()}"
        )
    if not isinstance(causal, bool):
        raise ValueError(f"causal must be True or False, got {causal!r}")
    out = np.empty((q.shape[0], v.shape[1]))
    for start, end in zip(cu[:-1].tolist(), cu[1:].tolist()):
        m = end - start
        out[start:end] = attention(
            q[start:end], k[start:end], v[start:end], causal_mask(m) if causal else full_mask(m)
        )[0]
    return out


def document_positions(doc_ids):  # [n] -> [n]
    """Return position ids that restart at 0 at each document of a packed row."""
    cu = cu_seqlens(doc_ids)
    return np.concatenate([np.arange(b - a) for a, b in zip(cu[:-1], cu[1:])]).astype(np.int64)


def document_leak(tokens, doc_ids, position, new_token, params, cfg):  # [n], [n] -> {"causal": [n], "document": [n]}
    """Change tokens[position] to new_token; return how far each position's logits move under each mask.

    Under the plain causal mask every later position moves, whatever its document; under the document
    mask only the changed token's own document does.
    """
    tokens = validate_tokens(tokens, cfg)
    ids = np.asarray(doc_ids)
    if ids.shape != tokens.shape:
        raise ValueError(f"doc_ids must give one document per token, got shape {ids.shape} for {tokens.size} tokens")
    masks = {"causal": causal_mask(tokens.size), "document": document_mask(ids)}
    if not (isinstance(position, (int, np.integer)) and not isinstance(position, bool) and 0 <= position < tokens.size):
        raise ValueError(f"position must be an index into tokens (0 .. {tokens.size - 1}), got {position!r}")
    if new_token == tokens[position]:
        raise ValueError(f"new_token must differ from tokens[position]={tokens[position]}, or nothing changes")
    changed = tokens.copy()
    changed[position] = new_token
    validate_tokens(changed, cfg)

    def run(mask):
        return lambda t: logits(stack(embed(t, params, cfg), params, cfg, mask)[0], params)

    return {name: movement(run(mask), tokens, [changed])[:, 0] for name, mask in masks.items()}

"""A Llama-style decoder, SmolLM2's kind: pre-norm blocks of RMSNorm, rotary positions, grouped-query attention
through primer's own `attention` and its mask, SwiGLU, and an output that reuses the token embeddings (tied).

The parameters are a dict of float32 arrays, each matrix [d_in, d_out] (x @ w), as in primer.transformer:

    embedding [vocab, d]      final_norm [d]      layers: a list of dicts, one per block, each with
    attn_norm [d]    w_q [d, h * d_h]    w_k, w_v [d, h_kv * d_h]    w_o [h * d_h, d]
    ffn_norm [d]     w_gate, w_up [d, d_ff]    w_down [d_ff, d]

The columns of w_q and w_k hold each head's coordinates in rotary pairs (2i, 2i+1) (primer.rotary). The shape is a
primer.config.Config (n_heads, n_kv_heads, d_model, d_ff, n_layers, vocab_size); theta (the rotary base) and eps (the
norm's) come with it. primer.pretrained loads a real model's weights into this layout.
"""

import numpy as np

from primer._checks import bool_mask
from primer.grouped_query import grouped_query_attention
from primer.masks import causal_mask
from primer.rms_norm import rms_norm
from primer.rotary import rotate
from primer.swiglu import swiglu

LAYER_SHAPES = {  # name -> shape, from the Config c
    "attn_norm": lambda c: (c.d_model,),
    "w_q": lambda c: (c.d_model, c.n_heads * c.d_head),
    "w_k": lambda c: (c.d_model, c.n_kv_heads * c.d_head),
    "w_v": lambda c: (c.d_model, c.n_kv_heads * c.d_head),
    "w_o": lambda c: (c.n_heads * c.d_head, c.d_model),
    "ffn_norm": lambda c: (c.d_model,),
    "w_gate": lambda c: (c.d_model, c.d_ff),
    "w_up": lambda c: (c.d_model, c.d_ff),
    "w_down": lambda c: (c.d_ff, c.d_model),
}


def init_params(seed, cfg):
    """Return seeded random float32 weights of cfg's shape (a toy Llama, for tests and small examples)."""
    rng = np.random.default_rng(seed)

    def w(shape):
        if len(shape) == 1:  # a norm's scale
            return (1 + 0.1 * rng.standard_normal(shape)).astype(np.float32)
        return (rng.standard_normal(shape) * shape[0] ** -0.5).astype(np.float32)

    return {
        "embedding": w((cfg.vocab_size, cfg.d_model)),
        "final_norm": w((cfg.d_model,)),
        "layers": [{k: w(shape(cfg)) for k, shape in LAYER_SHAPES.items()} for _ in range(cfg.n_layers)],
    }


def validate_params(params, cfg):
    """Raise ValueError naming the weight unless every array has its shape, is float32 and finite."""
    if not isinstance(params, dict) or len(params.get("layers", ())) != cfg.n_layers:
        raise ValueError(f"params must be a dict with embedding, final_norm and {cfg.n_layers} layers")
    named = [("embedding", params.get("embedding"), (cfg.vocab_size, cfg.d_model))]
    named.append(("final_norm", params.get("final_norm"), (cfg.d_model,)))
    for i, layer in enumerate(params["layers"]):
        named += [(f"layers[{i}].{k}", layer.get(k), shape(cfg)) for k, shape in LAYER_SHAPES.items()]
    for name, w, shape in named:
        if not isinstance(w, np.ndarray) or w.dtype != np.float32 or w.shape != shape:
            got = f"{w.dtype} {w.shape}" if isinstance(w, np.ndarray) else type(w).__name__
            raise ValueError(f"params {name} must be a float32 array of shape {list(shape)}, got {got}")
        if not np.isfinite(w).all():
            raise ValueError(f"params {name} must be finite (no NaN or inf): the file may be corrupted")


def validate_ids(ids, vocab_size):  # -> [n] int64
    """Return ids as a 1-D int array, or raise unless it is a non-empty list of ids in [0, vocab_size)."""
    a = np.asarray(ids)
    if a.ndim != 1 or a.size == 0:
        raise ValueError(f"ids must be a non-empty 1-D list of token ids, got shape {a.shape}")
    if a.dtype == bool or not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"ids must be integers (token ids), got dtype {a.dtype}")
    if a.min() < 0 or a.max() >= vocab_size:
        raise ValueError(f"ids must lie in the vocabulary [0, {vocab_size}), got min {a.min()} and max {a.max()}")
    return a.astype(np.int64)


def self_attention(
    x, layer, cfg, mask, positions, theta, past=None
):  # [n, d], ..., [n, n_past + n], [n] -> ([n, d], [h, n, n_past + n], ([h_kv, n_past + n, d_h] x2))
    """Return one block's attention output, its weights per head, and the keys and values it read (the cache)."""
    n = x.shape[0]
    q = (x @ layer["w_q"]).reshape(n, cfg.n_heads, cfg.d_head).transpose(1, 0, 2)  # [h, n, d_h]
    k = (x @ layer["w_k"]).reshape(n, cfg.n_kv_heads, cfg.d_head).transpose(1, 0, 2)  # [h_kv, n, d_h]
    v = (x @ layer["w_v"]).reshape(n, cfg.n_kv_heads, cfg.d_head).transpose(1, 0, 2)  # [h_kv, n, d_h]
    q, k = rotate(q, positions, theta), rotate(k, positions, theta)  # positions enter here, and only here
    if past is not None:
        k, v = np.concatenate([past[0], k], axis=1), np.concatenate([past[1], v], axis=1)
    out, weights = grouped_query_attention(q, k, v, mask)  # [h, n, d_h], [h, n, n_k]
    out = out.astype(x.dtype).transpose(1, 0, 2).reshape(n, cfg.n_heads * cfg.d_head)  # heads side by side
    return out @ layer["w_o"], weights, (k, v)


def block(x, layer, cfg, mask, positions, *, theta, eps, past=None):  # [n, d] -> ([n, d], [h, n, n_k], cache)
    """Return one pre-norm block: x + attention(norm(x)), then + swiglu(norm(.))."""
    a, weights, kv = self_attention(rms_norm(x, layer["attn_norm"], eps), layer, cfg, mask, positions, theta, past)
    x = x + a
    x = x + swiglu(rms_norm(x, layer["ffn_norm"], eps), layer["w_gate"], layer["w_up"], layer["w_down"])
    return x, weights, kv


def tied_logits(h, embedding):  # [n, d], [vocab, d] -> [n, vocab]
    """Return the next-token scores: each row's dot product with every token's embedding (the output is tied)."""
    return h @ embedding.T


def forward(
    ids, params, cfg, mask=None, positions=None, *, theta, eps, past=None, keep_attn=False
):  # [n], ..., [n, n_past + n], [n] -> ([n, vocab], [n_layers, h, n, n_past + n] or None, cache)
    """Return the logits of every position, the attention weights if keep_attn, and the keys and values per layer.

    mask None: causal (query i reads keys up to its own place, the past included); positions None: n_past, n_past + 1,
    ...; past: the cache a previous call returned (a list of (k, v) per layer), so one call decodes the next tokens.
    """
    ids = validate_ids(ids, cfg.vocab_size)
    n = ids.shape[0]
    n_past = 0 if past is None else past[0][0].shape[1]
    if past is not None and len(past) != cfg.n_layers:
        raise ValueError(f"past must hold one (k, v) per layer ({cfg.n_layers}), got {len(past)}")
    if mask is None:
        mask = causal_mask(n, n_past + n)
    elif np.shape(mask) != (n, n_past + n):
        raise ValueError(f"mask must have shape [n, n_past + n] = [{n}, {n_past + n}], got {list(np.shape(mask))}")
    else:
        mask = bool_mask("mask", mask, (n, n_past + n))
    positions = np.arange(n_past, n_past + n) if positions is None else positions
    x = params["embedding"][ids]  # [n, d]
    attn, cache = [], []
    for i, layer in enumerate(params["layers"]):
        x, w, kv = block(x, layer, cfg, mask, positions, theta=theta, eps=eps, past=None if past is None else past[i])
        cache.append(kv)
        if keep_attn:
            attn.append(w)
    logits = tied_logits(rms_norm(x, params["final_norm"], eps), params["embedding"])
    return logits, (np.stack(attn) if keep_attn else None), cache

"""One Transformer block, and the three machines built from it by changing only the masks.

encoder: the block with a full mask. decoder: the block with a causal mask. encoder-decoder: a
decoder whose blocks also read the encoder's output through cross-attention with a full
rectangular mask. The weights are random but seeded: this is for showing what masks do, not a
trained model. Pass a collections.Counter as `ops` to count the work done.
"""

import numpy as np

from primer._checks import bool_mask, float_array
from primer.attention import attention
from primer.machines import (
    machine_masks,  # the one place that says which mask a machine uses
    validate_machine,
)
from primer.position import sinusoidal_encoding
from primer.self_cross_heads import merge_heads, split_heads


def _dense(rng, d_in, d_out):
    return {"w": rng.normal(0.0, d_in**-0.5, (d_in, d_out)), "b": np.zeros(d_out)}


def _attn_params(rng, d):
    return {name: _dense(rng, d, d) for name in ("q", "k", "v", "o")}


def _norm_params(d):
    return {"g": np.ones(d), "b": np.zeros(d)}


def init_block(rng, cfg, *, cross=False):
    """Return one block's weights; with cross=True the block also has a cross-attention sub-layer."""
    p = {
        "ln1": _norm_params(cfg.d_model),
        "self": _attn_params(rng, cfg.d_model),
        "ln3": _norm_params(cfg.d_model),
        "ff1": _dense(rng, cfg.d_model, cfg.d_ff),
        "ff2": _dense(rng, cfg.d_ff, cfg.d_model),
    }
    if cross:
        p["ln2"] = _norm_params(cfg.d_model)
        p["cross"] = _attn_params(rng, cfg.d_model)
    return p


def init_stack(seed, cfg, *, cross=False):
    """Return seeded weights of an embedding, n_layers blocks, a final norm and tied output logits."""
    rng = np.random.default_rng(seed)
    return {
        "wte": rng.normal(0.0, 1.0, (cfg.vocab_size, cfg.d_model)),
        "wpe": sinusoidal_encoding(cfg.max_len, cfg.d_model),
        "blocks": [init_block(rng, cfg, cross=cross) for _ in range(cfg.n_layers)],
        "ln_f": _norm_params(cfg.d_model),
    }


def layer_norm(x, p, eps=1e-5):  # [n, d] -> [n, d]
    """Normalise each row to zero mean and unit variance, then scale and shift."""
    mu = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * p["g"] + p["b"]


def linear(x, p):  # [n, d_in] -> [n, d_out]
    """Apply one dense layer."""
    return x @ p["w"] + p["b"]


def project_kv(x, p, n_heads, ops=None):  # [n, d] -> ([h, n, d_head], [h, n, d_head])
    """Return the keys and values of x for one attention sub-layer."""
    if ops is not None:
        ops["kv_rows"] += x.shape[0]
    return split_heads(linear(x, p["k"]), n_heads), split_heads(linear(x, p["v"]), n_heads)


def attend(
    x_q, k, v, p, n_heads, mask, ops=None
):  # [n_q, d], [h, n_k, d_head] x2, [n_q, n_k] -> ([n_q, d], [h, n_q, n_k])
    """Run one attention sub-layer: project the queries, attend to the given K/V, project out."""
    q = split_heads(linear(x_q, p["q"]), n_heads)
    if ops is not None:
        ops["q_rows"] += x_q.shape[0]
        ops["scores"] += n_heads * q.shape[1] * k.shape[1]
    out, weights = attention(q, k, v, mask)
    return linear(merge_heads(out), p["o"]), weights


def block(
    x, p, n_heads, self_mask, enc_kv=None, cross_mask=None, ops=None, cache=None, layer=0
):  # [n, d] -> ([n, d], weights)
    """Run one pre-norm Transformer block. The masks are the only thing that tells the three machines apart.

    self_mask [n, n_k] decides what each position reads of its own sequence. If enc_kv (the
    encoder's K/V for this layer) is given, a cross-attention sub-layer reads it under cross_mask.
    With a cache (anything with append(layer, k, v) -> all of that layer's K, V), only the n new
    rows are projected, and they read every cached key as well.
    """
    h = layer_norm(x, p["ln1"])
    k, v = project_kv(h, p["self"], n_heads, ops)
    if cache is not None:
        k, v = cache.append(layer, k, v)
    a, self_w = attend(h, k, v, p["self"], n_heads, self_mask, ops)
    x = x + a
    cross_w = None
    if enc_kv is not None:
        a, cross_w = attend(layer_norm(x, p["ln2"]), *enc_kv, p["cross"], n_heads, cross_mask, ops)
        x = x + a
    x = x + linear(np.maximum(0.0, linear(layer_norm(x, p["ln3"]), p["ff1"])), p["ff2"])
    return x, {"self": self_w, "cross": cross_w}


def validate_tokens(tokens, cfg):  # [n] -> [n]
    """Return tokens as a 1-D int array of ids the model knows, or raise ValueError."""
    tokens = np.asarray(tokens)
    if tokens.ndim != 1 or tokens.size == 0 or not np.issubdtype(tokens.dtype, np.integer):
        raise ValueError(
            f"tokens must be a non-empty 1-D array of integer ids, got shape {tokens.shape}, dtype {tokens.dtype}"
        )
    if tokens.min() < 0 or tokens.max() >= cfg.vocab_size:
        raise ValueError(f"tokens must be ids in [0, {cfg.vocab_size}), got min {tokens.min()}, max {tokens.max()}")
    if tokens.size > cfg.max_len:
        raise ValueError(f"tokens must be at most max_len={cfg.max_len} long, got {tokens.size}")
    return tokens


def embed(tokens, params, cfg, start=0):  # [n] -> [n, d]
    """Return token embeddings plus positions start .. start + n - 1."""
    tokens = validate_tokens(tokens, cfg)
    if start + tokens.size > cfg.max_len:
        raise ValueError(f"start + len(tokens) must be <= max_len={cfg.max_len}, got {start + tokens.size}")
    return params["wte"][tokens] + params["wpe"][start : start + tokens.size]


def stack(
    x, params, cfg, self_mask, enc_out=None, cross_mask=None, ops=None, *, enc_kv=None, cache=None, final_norm=True
):  # [n, d] -> ([n, d], per-layer weights)
    """Run every block under the same masks, then the final norm.

    With enc_out (the encoder's output; PyTorch calls it memory) each layer projects its cross-attention K/V once; pass
    enc_kv instead to reuse K/V projected earlier. With a cache, x holds only the new rows.
    """
    x = float_array("x", x, min_ndim=2)
    n = x.shape[0]
    n_k = n + (cache.length if cache is not None else 0)
    self_mask = bool_mask("self_mask", self_mask, (n, n_k))
    if enc_out is not None and enc_kv is not None:
        raise ValueError("pass enc_out or enc_kv, not both")
    if enc_out is not None:
        enc_out = float_array("enc_out", enc_out, min_ndim=2)
        enc_kv = encoder_kv(enc_out, params, cfg, ops)
    if enc_kv is not None:
        if len(enc_kv) != len(params["blocks"]):
            raise ValueError(f"enc_kv must hold one (K, V) per layer ({len(params['blocks'])}), got {len(enc_kv)}")
        m = enc_kv[0][0].shape[-2]
        if cross_mask is None:
            cross_mask = machine_masks("encoder-decoder", n, m)[1]
        cross_mask = bool_mask("cross_mask", cross_mask, (n, m))
    weights = []
    for i, p in enumerate(params["blocks"]):
        kv = None if enc_kv is None else enc_kv[i]
        x, w = block(x, p, cfg.n_heads, self_mask, kv, cross_mask, ops, cache=cache, layer=i)
        weights.append(w)
    return (layer_norm(x, params["ln_f"]) if final_norm else x), weights


def encoder_kv(enc_out, params, cfg, ops=None):  # [m, d] -> per layer ([h, m, d_head], [h, m, d_head])
    """Project the encoder's output into every decoder layer's cross-attention K/V, once."""
    if ops is not None:
        ops["cross_kv_projections"] += len(params["blocks"])
    return [project_kv(enc_out, p["cross"], cfg.n_heads, ops) for p in params["blocks"]]


def logits(h, params):  # [n, d] -> [n, vocab]
    """Return next-token scores; the output matrix is the embedding matrix (tied weights)."""
    return h @ params["wte"].T


def encode(tokens, params, cfg, ops=None):  # [n] -> [n, d]
    """Run an encoder: the block with a full mask, every position reads every position."""
    x = embed(tokens, params, cfg)
    return stack(x, params, cfg, machine_masks("encoder", len(x))[0], ops=ops)[0]


def decode(tokens, params, cfg, enc_out=None, ops=None):  # [n] -> [n, vocab]
    """Run a decoder: the block with a causal mask; with enc_out it is the decoder of an encoder-decoder."""
    x = embed(tokens, params, cfg)
    h, _ = stack(x, params, cfg, machine_masks("decoder", len(x))[0], enc_out=enc_out, ops=ops)
    return logits(h, params)


def run_machine(machine, tokens, params, cfg, enc_out=None):  # [n] -> [n, d]
    """Run the stack of a machine on token ids (reading enc_out, the encoder's output, if it is the encoder-decoder).

    Returns the final-normed hidden states; logits turns them into next-token scores.
    """
    if (machine == "encoder-decoder") != (enc_out is not None):
        raise ValueError(
            "enc_out (the encoder's output) is read by the encoder-decoder only, "
            f"got machine={validate_machine(machine)!r} "
            f"with enc_out {'given' if enc_out is not None else 'missing'}"
        )
    x = embed(tokens, params, cfg)
    self_mask, cross_mask = machine_masks(machine, len(x), None if enc_out is None else np.shape(enc_out)[0])
    return stack(x, params, cfg, self_mask, enc_out=enc_out, cross_mask=cross_mask)[0]

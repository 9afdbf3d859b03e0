"""A KV cache: keep every layer's keys and values, and compute only the new token's row.

Cached decoding is exact, not an approximation, because of the causal mask: an old position
never reads a later one, so appending a token changes nothing already computed. Only K and V
are kept: the new row needs the new query and every key and value, and old queries are never
read again.
"""

import numpy as np

from primer._checks import float_array
from primer.attention import attention
from primer.machines import machine_masks, validate_machine
from primer.probe import movement
from primer.transformer import embed, logits, stack, validate_tokens


class KVCache:
    """Each layer's keys and values so far, as [n_heads, t, d_head] arrays (t grows by one row per token)."""

    def __init__(self, cfg, dtype=np.float64):
        self.cfg = cfg
        self.dtype = np.dtype(dtype)
        if self.dtype.kind != "f":
            raise ValueError(f"dtype must be a floating-point type, got {self.dtype}")
        empty = np.zeros((cfg.n_heads, 0, cfg.d_head), dtype=self.dtype)
        self.k = [empty.copy() for _ in range(cfg.n_layers)]
        self.v = [empty.copy() for _ in range(cfg.n_layers)]

    @property
    def length(self):
        """How many positions the cache holds."""
        return self.k[0].shape[1]

    @property
    def nbytes(self):
        """The bytes the cached arrays occupy."""
        return sum(a.nbytes for a in self.k + self.v)

    def append(self, layer, k, v):  # [h, m, d_head] x2 -> ([h, t + m, d_head], [h, t + m, d_head])
        """Add m new rows of keys and values to one layer and return everything that layer holds."""
        self.k[layer] = np.concatenate([self.k[layer], np.asarray(k, dtype=self.dtype)], axis=1)
        self.v[layer] = np.concatenate([self.v[layer], np.asarray(v, dtype=self.dtype)], axis=1)
        return self.k[layer], self.v[layer]


def decode_cached(
    tokens, params, cfg, cache=None, ops=None, *, enc_out=None, enc_kv=None, weights=None
):  # [m] -> [m, vocab]
    """Run m tokens through the decoder at positions t .. t + m - 1, reading the cached K/V of the t earlier ones.

    The new tokens' K/V rows are appended to the cache. With m = 1 this is one step of incremental
    decoding; with the whole prompt it is the "prefill"; without a cache (t = 0) it is the whole
    decoder, as transformer.decode. enc_out (the encoder's output) or enc_kv (its K/V per layer,
    projected once) adds cross-attention. Pass a list as weights to receive each layer's attention weights.
    """
    tokens = validate_tokens(tokens, cfg)
    if cache is not None and cache.cfg != cfg:
        raise ValueError("cache must be made for the same Config as the model")
    t = 0 if cache is None else cache.length
    x = embed(tokens, params, cfg, start=t)
    self_mask = machine_masks("decoder", tokens.size, past=t)[
        0
    ]  # new rows read every cached key and the new ones up to their own
    h, w = stack(x, params, cfg, self_mask, enc_out=enc_out, ops=ops, enc_kv=enc_kv, cache=cache)
    if weights is not None:
        weights.extend(w)
    return logits(h, params)


def decode_step(
    x_new, k_cache, v_cache, w_q, w_k, w_v
):  # [d], [t, d_k], [t, d_v], [d, d_k], [d, d_k], [d, d_v] -> ([d_v], [t+1, d_k], [t+1, d_v])
    """Run one cached single-head attention step: project the new row, append its k and v, attend once."""
    x_new = float_array("x_new", x_new)
    if x_new.ndim != 1:
        raise ValueError(f"x_new must be one row [d], got shape {x_new.shape}")
    w_q, w_k, w_v = (float_array(n, w, min_ndim=2) for n, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)))
    if w_q.shape[0] != x_new.size or w_k.shape[0] != x_new.size or w_v.shape[0] != x_new.size:
        raise ValueError(f"w_q, w_k and w_v must have d = {x_new.size} rows, got {w_q.shape}, {w_k.shape}, {w_v.shape}")
    if w_q.shape[1] != w_k.shape[1]:
        raise ValueError(f"w_q and w_k must give the same d_k, got {w_q.shape[1]} and {w_k.shape[1]}")
    k_cache, v_cache = np.asarray(k_cache, dtype=float), np.asarray(v_cache, dtype=float)
    for name, cache, width in (("k_cache", k_cache, w_k.shape[1]), ("v_cache", v_cache, w_v.shape[1])):
        if cache.ndim != 2 or cache.shape[1] != width:
            raise ValueError(f"{name} must have shape [t, {width}], got {cache.shape}")
    if k_cache.shape[0] != v_cache.shape[0]:
        raise ValueError(
            f"k_cache and v_cache must hold the same number of rows, got {k_cache.shape[0]} and {v_cache.shape[0]}"
        )
    k_cache = np.vstack([k_cache, x_new @ w_k])
    v_cache = np.vstack([v_cache, x_new @ w_v])
    out, _ = attention((x_new @ w_q)[None, :], k_cache, v_cache)  # one query, every key: nothing to mask
    return out[0], k_cache, v_cache


def layer_kv(tokens, params, cfg, mask):  # [n], [n, n] -> (per layer ([h, n, d_head], [h, n, d_head]), [n, vocab])
    """Run the stack under a mask and return every layer's self-attention K/V and the final logits."""
    cache = KVCache(cfg)  # an empty cache just collects what each layer projects
    h, _ = stack(embed(tokens, params, cfg), params, cfg, mask, cache=cache)
    return list(zip(cache.k, cache.v)), logits(h, params)


def old_rows_drift(tokens, new_token, params, cfg, machine="decoder"):  # [n], int -> dict
    """Append one token and return max |change| of the old positions' K, V (per layer) and logits.

    machine="decoder" runs the causal mask; machine="encoder" runs the same weights bidirectionally.
    """
    if validate_machine(machine) == "encoder-decoder":
        raise ValueError("machine must be 'encoder' or 'decoder' (one stack), got 'encoder-decoder'")
    tokens = validate_tokens(tokens, cfg)
    longer = validate_tokens(np.append(tokens, new_token), cfg)

    def drift(pick):  # pick: (per-layer K/V, logits) -> array with positions first
        def run(t):
            return pick(*layer_kv(t, params, cfg, machine_masks(machine, t.size)[0]))

        return float(movement(run, tokens, [longer]).max())

    return {
        "k": [drift(lambda kv, out, i=i: np.moveaxis(kv[i][0], 1, 0)) for i in range(cfg.n_layers)],
        "v": [drift(lambda kv, out, i=i: np.moveaxis(kv[i][1], 1, 0)) for i in range(cfg.n_layers)],
        "logits": drift(lambda kv, out: out),
    }


def new_row_dependence(q, k, v, seed=0):  # [n, d_k], [n, d_k], [n, d_v] -> dict
    """Replace the old rows (all but the last) of q, of k, or of v by noise; return max |change| of the last output row.

    Under the causal mask the last row reads only its own query, so changing old queries moves
    it by exactly 0: that is why a cache keeps K and V and drops Q.
    """
    q, k, v = float_array("q", q, min_ndim=2), float_array("k", k, min_ndim=2), float_array("v", v, min_ndim=2)
    n = q.shape[0]
    if n < 2 or k.shape[0] != n or v.shape[0] != n:
        raise ValueError(
            f"q, k and v must have the same number of rows n >= 2, got {q.shape[0]}, {k.shape[0]}, {v.shape[0]}"
        )
    rng = np.random.default_rng(seed)
    mask = machine_masks("decoder", n)[0]
    variants = []
    for i in range(3):  # q, then k, then v: old rows replaced by noise
        qkv = [q.copy(), k.copy(), v.copy()]
        qkv[i][:-1] = rng.normal(size=qkv[i][:-1].shape)
        variants.append(qkv)
    moved = movement(lambda qkv: attention(*qkv, mask)[0][-1:], (q, k, v), variants)[0]
    return dict(zip(("q", "k", "v"), map(float, moved)))

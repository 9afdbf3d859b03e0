"""A KV cache: keep every layer's keys and values, and compute only the new token's row.

Cached decoding is exact, not an approximation, because of the causal mask: an old position
never reads a later one, so appending a token changes nothing already computed. Only K and V
are kept: the new row needs the new query and every key and value, and old queries are never
read again.
"""

import numpy as np

from primer._checks import float_array, nonneg_int, positive_int
from primer.attention import attention
from primer.machines import machine_masks, validate_machine
from primer.masks import prefix_lm_mask
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


# ---- a prefix-LM prompt: its prefix read both ways, the rest causal; the suffix still decodes from a cache


def prefill_prefix_lm(tokens, prefix, params, cfg, cache):  # [n] -> [n, vocab]
    """Run a prompt under prefix_lm_mask(n, prefix) into an empty cache and return its logits.

    The tokens after the prompt read every earlier key and their own, which is what decode_cached's mask
    gives them, and no earlier row reads a later key: so the cache stays exact.
    """
    tokens = validate_tokens(tokens, cfg)
    if cache.cfg != cfg or cache.length:
        raise ValueError("cache must be empty and made for the same Config as the model")
    mask = prefix_lm_mask(tokens.size, prefix)
    h, _ = stack(embed(tokens, params, cfg), params, cfg, mask, cache=cache)
    return logits(h, params)


def generate_prefix_lm(prompt, prefix, n_new, params, cfg, *, cached=True):  # [n] -> ([n_new], [n_new, vocab])
    """Greedily append n_new tokens to a prefix-LM prompt; return them and the logits that chose each.

    cached=True prefills once and decodes one token at a time from the cache; cached=False reruns the
    whole row under prefix_lm_mask at every step.
    """
    prompt = validate_tokens(prompt, cfg)
    n_new = positive_int("n_new", n_new)
    if nonneg_int("prefix", prefix) > prompt.size:
        raise ValueError(
            f"prefix must be <= len(prompt)={prompt.size} (the prefix is part of the prompt), got {prefix}"
        )
    if prompt.size + n_new - 1 > cfg.max_len:
        raise ValueError(f"len(prompt) + n_new - 1 must be <= max_len={cfg.max_len}, got {prompt.size + n_new - 1}")
    cache = KVCache(cfg)
    tokens, chosen = prompt, []
    for step in range(n_new):
        if not cached:
            h, _ = stack(embed(tokens, params, cfg), params, cfg, prefix_lm_mask(tokens.size, prefix))
            row = logits(h, params)[-1]
        elif step == 0:
            row = prefill_prefix_lm(prompt, prefix, params, cfg, cache)[-1]
        else:
            row = decode_cached(tokens[-1:], params, cfg, cache)[-1]
        chosen.append(row)
        tokens = np.append(tokens, int(row.argmax()))
    return tokens[prompt.size :], np.array(chosen)


# ---- a ring buffer for a sliding window: w slots, position t in slot t mod w, memory flat however long the text


class RingCache:
    """One head's keys and values for a window of window positions (plus sinks kept for good), in a fixed buffer.

    Slots 0 .. sinks - 1 hold positions 0 .. sinks - 1 for good; the ring's slot t mod window holds position t
    (for t >= sinks), overwriting position t - window, which has just left the window.
    """

    def __init__(self, window, d_k, d_v, *, sinks=0):
        self.window, self.sinks = positive_int("window", window), nonneg_int("sinks", sinks)
        slots = self.sinks + self.window
        self.k = np.zeros((slots, positive_int("d_k", d_k)))
        self.v = np.zeros((slots, positive_int("d_v", d_v)))
        self.positions = np.full(slots, -1)  # which position each slot holds; -1: empty
        self.length = 0  # positions seen so far

    @property
    def nbytes(self):
        """The bytes the buffers occupy: fixed when the cache is made."""
        return self.k.nbytes + self.v.nbytes + self.positions.nbytes

    def slot(self, t):  # -> int
        """Return the slot that position t is written to."""
        return t if t < self.sinks else self.sinks + t % self.window

    def append(self, k, v):  # [d_k], [d_v] -> ([s, d_k], [s, d_v])
        """Write the next position's key and value and return the keys and values that position may read."""
        s = self.slot(self.length)
        self.k[s], self.v[s], self.positions[s] = k, v, self.length
        self.length += 1
        held = self.positions >= 0  # every held position is in the window or a sink: the ring overwrote the rest
        return self.k[held], self.v[held]


def ring_decode(q, k, v, window, *, sinks=0):  # [n, d_k], [n, d_k], [n, d_v] -> ([n, d_v], [n] bytes)
    """Decode one position at a time through a RingCache; return the outputs and the cache's bytes after each step.

    The slots are not in position order, and need not be: softmax and the weighted sum add over keys in any
    order, and each key carries its position already.
    """
    q, k, v = float_array("q", q, min_ndim=2), float_array("k", k, min_ndim=2), float_array("v", v, min_ndim=2)
    n = q.shape[0]
    if q.ndim != 2 or k.shape[0] != n or v.shape[0] != n or q.shape[1] != k.shape[1]:
        raise ValueError(f"q, k and v must be [n, d] with the same n and d_k, got {q.shape}, {k.shape}, {v.shape}")
    cache = RingCache(window, k.shape[1], v.shape[1], sinks=sinks)
    out, sizes = np.empty((n, v.shape[1])), np.empty(n, dtype=np.int64)
    for t in range(n):
        keys, values = cache.append(k[t], v[t])
        out[t] = attention(q[t : t + 1], keys, values)[0][0]  # one query, every held key open
        sizes[t] = cache.nbytes
    return out, sizes

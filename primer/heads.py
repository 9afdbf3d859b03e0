"""Multi-head attention: split the projections into heads, attend in each, merge; and the original Transformer's shape."""

from dataclasses import dataclass

import numpy as np

from primer._checks import float_array, positive_int
from primer.attention import attention


def split_heads(x, n_heads):  # [..., n, h * d_h] -> [..., h, n, d_h]
    """Cut the last axis into n_heads equal slices and move the head axis in front of the positions."""
    x = float_array("x", x, min_ndim=2)
    n_heads = positive_int("n_heads", n_heads)
    width = x.shape[-1]
    if width % n_heads:
        raise ValueError(f"n_heads must divide the last axis of x, got width {width} and n_heads {n_heads}")
    x = x.reshape(x.shape[:-1] + (n_heads, width // n_heads))
    return np.swapaxes(x, -2, -3)


def merge_heads(x):  # [..., h, n, d_h] -> [..., n, h * d_h]
    """Undo split_heads: put the heads side by side again on the last axis."""
    x = float_array("x", x, min_ndim=3)
    x = np.swapaxes(x, -2, -3)
    return x.reshape(x.shape[:-2] + (x.shape[-2] * x.shape[-1],))


def _projection(name, w, d_in):
    w = float_array(name, w, min_ndim=2)
    if w.ndim != 2 or w.shape[0] != d_in:
        raise ValueError(f"{name} must have shape [{d_in}, width], got {w.shape}")
    return w


def multi_head_attention(x_q, x_kv, w_q, w_k, w_v, w_o, n_heads, mask=None):  # [n_q, d], [n_k, d], [d, h*d_k] x2, [d, h*d_v], [h*d_v, d_out] | None, h, [n_q, n_k] -> ([n_q, d_out], [h, n_q, n_k])
    """Return (output, per-head weights): project, split into heads, attend in each head, merge, project out.

    x_q is x_kv for self-attention; for cross-attention the queries come from another sequence.
    w_o=None leaves the merged heads unprojected.
    """
    x_q = float_array("x_q", x_q, min_ndim=2)
    x_kv = float_array("x_kv", x_kv, min_ndim=2)
    if x_q.ndim != 2 or x_kv.ndim != 2:
        raise ValueError(f"x_q and x_kv must have shape [n, d], got {x_q.shape} and {x_kv.shape}")
    if x_q.shape[1] != x_kv.shape[1]:
        raise ValueError(f"x_q and x_kv must share the model width d, got {x_q.shape} and {x_kv.shape}")
    d = x_q.shape[1]
    w_q, w_k, w_v = (_projection(nm, w, d) for nm, w in (("w_q", w_q), ("w_k", w_k), ("w_v", w_v)))
    if w_q.shape != w_k.shape:
        raise ValueError(f"w_q and w_k must have the same shape, got {w_q.shape} and {w_k.shape}")
    q = split_heads(x_q @ w_q, n_heads)    # [h, n_q, d_k]
    k = split_heads(x_kv @ w_k, n_heads)   # [h, n_k, d_k]
    v = split_heads(x_kv @ w_v, n_heads)   # [h, n_k, d_v]
    out, weights = attention(q, k, v, mask)
    out = merge_heads(out)                 # [n_q, h * d_v]
    if w_o is not None:
        w_o = _projection("w_o", w_o, out.shape[1])
        out = out @ w_o
    return out, weights


@dataclass(frozen=True)
class TransformerConfig:
    """The shape of an encoder-decoder Transformer; d_k = d_v = d_model / n_heads."""

    encoder_layers: int
    decoder_layers: int
    d_model: int
    n_heads: int
    d_ff: int

    def __post_init__(self):
        for name in ("encoder_layers", "decoder_layers", "d_model", "n_heads", "d_ff"):
            object.__setattr__(self, name, positive_int(name, getattr(self, name)))
        if self.d_model % self.n_heads:
            raise ValueError(f"n_heads must divide d_model, got d_model {self.d_model} and n_heads {self.n_heads}")

    @property
    def d_k(self):
        """Width of one head's queries and keys (and values): d_model / n_heads."""
        return self.d_model // self.n_heads


# Attention Is All You Need (2017), Table 3, the base model.
TRANSFORMER_BASE = TransformerConfig(encoder_layers=6, decoder_layers=6, d_model=512, n_heads=8, d_ff=2048)


# ---- chapter 4's multi-head example: 「苹果很甜，我昨天买了三斤」, hand-set, not trained.
APPLE_TOKENS = ("苹果", "很", "甜", "，", "我", "昨天", "买", "了", "三", "斤")
# Each token is one-hot on a word-class feature; the features are the embedding's dimensions.
APPLE_FEATURES = ("noun", "adverb", "adjective", "punct", "pronoun", "time", "verb", "particle", "number", "measure")
APPLE_X = np.eye(len(APPLE_TOKENS))
APPLE_HEADS = ("attribute", "action", "quantity")
APPLE_D_HEAD = 4
APPLE_STRENGTH = 3.0  # each matching (query, key) pair scores STRENGTH^2 / sqrt(D_HEAD)

# (head, query class, key class): in that head, a token of the query class looks for the key class.
APPLE_RELATIONS = (
    ("attribute", "adjective", "noun"), ("attribute", "noun", "adjective"),      # 甜 -> 苹果, 苹果 -> 甜
    ("action", "verb", "noun"), ("action", "verb", "pronoun"),                  # 买 -> 苹果, 买 -> 我
    ("action", "noun", "verb"), ("action", "pronoun", "verb"),                  # 苹果 -> 买, 我 -> 买
    ("quantity", "measure", "noun"), ("quantity", "number", "noun"),            # 斤 -> 苹果, 三 -> 苹果
    ("quantity", "noun", "measure"),                                            # 苹果 -> 斤
)


def apple_projections():  # -> ([d, h*d_h], [d, h*d_h], [d, h*d_h])
    """Return hand-set (W_q, W_k, W_v) that write each relation of APPLE_RELATIONS into its own head.

    Within a head, each key class that is looked for gets one slot of the head's d_h dimensions:
    the key class writes STRENGTH into that slot of K, each query class looking for it writes
    STRENGTH into the same slot of Q. W_v copies each token's class into every head unchanged.
    """
    d, h, d_h = len(APPLE_FEATURES), len(APPLE_HEADS), APPLE_D_HEAD
    w_q, w_k = np.zeros((d, h * d_h)), np.zeros((d, h * d_h))
    for head in range(h):
        slots = {}
        for name, q_class, k_class in APPLE_RELATIONS:
            if name != APPLE_HEADS[head]:
                continue
            slot = slots.setdefault(k_class, len(slots))
            if slot >= d_h:
                raise ValueError(f"head {name} needs more than d_h = {d_h} slots")
            col = head * d_h + slot
            w_k[APPLE_FEATURES.index(k_class), col] = APPLE_STRENGTH
            w_q[APPLE_FEATURES.index(q_class), col] = APPLE_STRENGTH
    w_v = np.tile(np.eye(d), (1, h))
    return w_q, w_k, w_v


def wide_head_weights(x, w_q, w_k):  # [n, d], [d, D], [d, D] -> [n, n]
    """Return the weights of ONE head as wide as all heads together: one softmax row per query."""
    x = float_array("x", x, min_ndim=2)
    w_q = _projection("w_q", w_q, x.shape[-1])
    w_k = _projection("w_k", w_k, x.shape[-1])
    if w_q.shape != w_k.shape:
        raise ValueError(f"w_q and w_k must have the same shape, got {w_q.shape} and {w_k.shape}")
    return attention(x @ w_q, x @ w_k, x @ w_k)[1]


def total_variation(p, r):  # [..., n], [..., n] -> [...] (leading axes broadcast)
    """Return half the L1 distance between distributions: 0 equal, 1 no overlap."""
    p = float_array("p", p)
    r = float_array("r", r)
    try:
        np.broadcast_shapes(p.shape, r.shape)
    except ValueError:
        raise ValueError(f"p and r must broadcast to one shape, got {p.shape} and {r.shape}") from None
    if p.shape[-1] != r.shape[-1]:
        raise ValueError(f"p and r must have the same last axis, got {p.shape} and {r.shape}")
    return 0.5 * np.abs(p - r).sum(axis=-1)


# ---- chapter 4's cross-attention example: a target sentence reads a source sentence.
CROSS_SOURCE = ("我", "昨天", "买", "了", "苹果")        # keys and values: the encoder side
CROSS_TARGET = ("I", "bought", "apples")              # queries: the decoder side
# Hand-set 3-d vectors on the axes (person, buying, fruit); 昨天 and 了 carry none of them.
CROSS_SOURCE_X = np.array([[2.0, 0.0, 0.0], [0.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 0.0], [0.0, 0.0, 2.0]])
CROSS_TARGET_X = np.array([[2.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 2.0]])

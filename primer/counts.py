"""Every count of the primer in one place: multiply-adds, attention scores, parameters, KV-cache bytes.

All of it is exact integer arithmetic on a shape (primer.config.Config); nothing here runs a model:
primer.decoding.measured_ops runs the decoder to check the predicted counts against real work.
"""

from collections import Counter
from fractions import Fraction

import numpy as np

from primer._checks import nonneg_int, positive_int
from primer.config import Config
from primer.machines import validate_machine

# ---- one layer: self-attention against an RNN ------------------------------------------------

LAYER_KINDS = ("self-attention", "rnn")


def attention_cost(n, d):  # -> int
    """Return the leading multiply-adds of one self-attention layer: n^2 d (every pair, width d)."""
    return positive_int("n", n) ** 2 * positive_int("d", d)


def rnn_cost(n, d):  # -> int
    """Return the leading multiply-adds of one RNN layer: n d^2 (one d x d matrix per step)."""
    return positive_int("n", n) * positive_int("d", d) ** 2


def cost_ratio(n, d):  # -> float
    """Return self-attention cost / RNN cost = n^2 d / (n d^2) = n / d."""
    return attention_cost(n, d) / rnn_cost(n, d)


def serial_steps(n, kind):  # -> int
    """Return how many steps must run one after another over n positions: RNN n, self-attention 1."""
    n = positive_int("n", n)
    if kind not in LAYER_KINDS:
        raise ValueError(f"kind must be one of {LAYER_KINDS}, got {kind!r}")
    return n if kind == "rnn" else 1


def cost_row(n, d):  # -> dict
    """Return one row of the cost table: both costs, their ratio and both serial step counts."""
    return {
        "n": positive_int("n", n),
        "d": positive_int("d", d),
        "attention": attention_cost(n, d),
        "rnn": rnn_cost(n, d),
        "ratio": cost_ratio(n, d),
        "attention_steps": serial_steps(n, "self-attention"),
        "rnn_steps": serial_steps(n, "rnn"),
    }


# ---- generation: attention scores with and without a KV cache ---------------------------------
# Step n runs on a prefix of n tokens: without a cache it scores n x n (query, key) pairs, with a
# cache only the new token asks, n pairs. Over n = 1 .. N: N(N+1)(2N+1)/6 against N(N+1)/2.
# A kernel that skips the masked upper triangle scores n(n+1)/2 pairs per uncached step instead:
# N(N+1)(N+2)/6 in all. The projections and the feed-forward layer see n rows a step without a
# cache and 1 row with one: N(N+1)/2 against N.

SCORE_TABLES = ("full", "causal")  # the whole n x n table, or only its unmasked lower triangle; chapter 10
WORK_KINDS = ("scores", "causal_scores", "rows")  # what speedup compares; used in chapter 10 (kv-cache)


def total_scores(n_steps, cached, n_layers=1, n_heads=1, table="full"):  # -> int
    """Return the (query, key) scores of n_steps generation steps, in closed form, over every layer and head.

    table="full" counts the whole n x n table of an uncached step, table="causal" only its lower
    triangle; a cached step scores one row of n keys either way.
    """
    n = nonneg_int("n_steps", n_steps)
    if table not in SCORE_TABLES:
        raise ValueError(f"table must be one of {SCORE_TABLES}, got {table!r}")
    if cached:
        per_head = n * (n + 1) // 2
    elif table == "full":
        per_head = n * (n + 1) * (2 * n + 1) // 6
    else:
        per_head = n * (n + 1) * (n + 2) // 6
    return per_head * positive_int("n_layers", n_layers) * positive_int("n_heads", n_heads)


def total_rows(n_steps, cached, n_layers=1):  # -> int
    """Return the token rows that pass through the projections and the feed-forward layer in n_steps steps."""
    n = nonneg_int("n_steps", n_steps)
    per_layer = n if cached else n * (n + 1) // 2
    return per_layer * positive_int("n_layers", n_layers)


def speedup(n_steps, work="scores"):  # -> Fraction
    """Return the exact ratio of work without / with a cache.

    work="scores" (full n x n tables): (2N+1)/3; "causal_scores" (lower triangles only): (N+2)/3;
    "rows" (projections and feed-forward): (N+1)/2.
    """
    n = positive_int("n_steps", n_steps)
    if work not in WORK_KINDS:
        raise ValueError(f"work must be one of {WORK_KINDS}, got {work!r}")
    if work == "rows":
        return Fraction(total_rows(n, cached=False), total_rows(n, cached=True))
    table = "full" if work == "scores" else "causal"
    return Fraction(total_scores(n, cached=False, table=table), total_scores(n, cached=True))


def predicted_ops(n_steps, cfg, cached):  # -> Counter
    """Return the work counters primer's decoder should report for n_steps steps from a one-token prompt."""
    n = positive_int("n_steps", n_steps)
    cfg = _config(cfg)
    rows = cfg.n_layers * (n if cached else n * (n + 1) // 2)  # K/V rows projected = query rows asked
    return Counter({"kv_rows": rows, "q_rows": rows, "scores": total_scores(n, cached, cfg.n_layers, cfg.n_heads)})


# ---- parameters ----------------------------------------------------------------------------

# The parts a parameter count is split into, in the order tables print them.
PARTS = ("token_embeddings", "positions", "attention", "feed_forward", "biases", "norms", "pooler", "output_head")


def count_values(tree):  # nested dicts / lists of arrays -> int
    """Return how many numbers a weight tree holds: the count read off real arrays."""
    if isinstance(tree, dict):
        return sum(count_values(v) for v in tree.values())
    if isinstance(tree, (list, tuple)):
        return sum(count_values(v) for v in tree)
    return int(np.asarray(tree).size)


def count_params(cfg, machine):  # -> {part: int}
    """Return the parameter count of each part in PARTS for a machine of this shape; they sum to the total.

    An encoder or a decoder is one stack of n_layers blocks; an encoder-decoder is two, and each
    decoder block has a cross-attention sub-layer too. Both stacks share one embedding matrix.
    """
    c = _config(cfg)
    machine = validate_machine(machine)
    stacks = 2 if machine == "encoder-decoder" else 1
    blocks = stacks * c.n_layers
    attn = blocks + (c.n_layers if machine == "encoder-decoder" else 0)  # attention sub-layers
    d, kv = c.d_model, c.n_kv_heads * c.d_head  # kv: width of K and of V
    ff_matrices = 3 if c.gated_ff else 2
    norms = attn + blocks + c.embedding_norm + c.final_norm * stacks  # one per sub-layer, plus extras
    positions = c.max_len * d if c.positions == "learned" else 0
    positions += c.segment_types * d + c.relative_buckets * c.n_heads * stacks
    return {
        "token_embeddings": c.vocab_size * d,
        "positions": positions,
        "attention": attn * (2 * d * d + 2 * d * kv),  # W_q, W_o [d, d]; W_k, W_v [d, kv]
        "feed_forward": blocks * ff_matrices * d * c.d_ff,
        "biases": (attn * (2 * d + 2 * kv) + blocks * ((ff_matrices - 1) * c.d_ff + d)) if c.dense_bias else 0,
        "norms": norms * d * (2 if c.norm_bias else 1),
        "pooler": (d * d + d) if c.pooler else 0,
        "output_head": 0 if c.tied_output else c.vocab_size * d,
    }


# ---- KV-cache bytes ------------------------------------------------------------------------


def kv_cache_bytes(cfg, n_tokens, *, batch=1, bytes_per_value=2):  # -> int
    """Return the bytes of a KV cache: K and V x layers x KV heads x d_head x tokens kept x batch x bytes.

    A sliding window (cfg.window) keeps the last window tokens: the keys the newest query reads under
    masks.window_mask (itself included), so cfg.window is the published sliding_window. bytes_per_value 2 is fp16.
    """
    c = _config(cfg)
    n_tokens = nonneg_int("n_tokens", n_tokens)
    kept = n_tokens if c.window is None else min(n_tokens, c.window)
    return (
        2
        * c.n_layers
        * c.n_kv_heads
        * c.d_head
        * kept
        * positive_int("batch", batch)
        * positive_int("bytes_per_value", bytes_per_value)
    )


UNITS = ("B", "KiB", "MiB", "GiB", "TiB")


def format_bytes(n_bytes, digits=2):  # int -> str
    """Format a byte count with binary units: 524288 -> '512 KiB', 2147483648 -> '2 GiB'."""
    n = nonneg_int("n_bytes", n_bytes)
    value, unit = float(n), 0
    while value >= 1024 and unit < len(UNITS) - 1:
        value, unit = value / 1024, unit + 1
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return f"{text} {UNITS[unit]}"


def _config(cfg):
    if not isinstance(cfg, Config):
        raise ValueError(f"cfg must be a primer.config.Config, got {type(cfg).__name__}")
    return cfg

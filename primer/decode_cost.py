"""What N generation steps cost in attention work, with and without a KV cache.

Step n runs on a prefix of n tokens. Without a cache every step recomputes the whole prefix, so
it scores n x n (query, key) pairs; with a cache only the new token asks, n pairs. Summed over
n = 1 .. N: sum n^2 = N(N+1)(2N+1)/6 against sum n = N(N+1)/2, a ratio of (2N+1)/3.
"""

from collections import Counter
from fractions import Fraction

import numpy as np

from primer._checks import nonneg_int, positive_int
from primer.generate import generate
from primer.kvcache import generate_cached


def step_scores(n, cached):  # int -> int
    """Return the (query, key) scores one head computes at step n (a prefix of n tokens)."""
    n = positive_int("n", n)
    return n if cached else n * n


def total_scores(n_steps, cached, n_layers=1, n_heads=1):  # int -> int
    """Return the scores of n_steps steps, summed in closed form over every layer and head."""
    n = nonneg_int("n_steps", n_steps)
    per_head = n * (n + 1) // 2 if cached else n * (n + 1) * (2 * n + 1) // 6
    return per_head * positive_int("n_layers", n_layers) * positive_int("n_heads", n_heads)


def speedup(n_steps):  # int -> Fraction
    """Return the exact ratio of attention work without / with a cache: sum n^2 / sum n = (2N+1)/3."""
    n = positive_int("n_steps", n_steps)
    return Fraction(total_scores(n, cached=False), total_scores(n, cached=True))


def predicted_ops(n_steps, cfg, cached):  # int -> Counter
    """Return the work counters primer's decoder should report for n_steps steps from a one-token prompt."""
    n = positive_int("n_steps", n_steps)
    layers = cfg.n_layers
    rows = layers * (n if cached else n * (n + 1) // 2)   # K/V rows projected = query rows asked
    return Counter({"kv_rows": rows, "q_rows": rows,
                    "scores": total_scores(n, cached, layers, cfg.n_heads)})


def measured_ops(n_steps, params, cfg, cached, first_token=1):  # int -> Counter
    """Run n_steps steps of greedy generation from a one-token prompt and return what primer counted."""
    n = positive_int("n_steps", n_steps)
    if n > cfg.max_len:
        raise ValueError(f"n_steps must be <= max_len={cfg.max_len}, got {n}")
    ops = Counter()
    run = generate_cached if cached else generate
    run(np.array([first_token]), params, cfg, n, ops)
    return ops

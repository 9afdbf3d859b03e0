"""Decoding: turn next-token scores into one token, and the one loop that predicts, appends and runs again.

Every chapter that generates uses `generate`: with or without a KV cache, greedy or sampled,
decoder-only or reading an encoder's output. Choosing a token is logits -> temperature ->
softmax -> top-k filter -> top-p filter -> one draw, all in `sample` (via `sampling_probs`).
"""

import numbers
from collections import Counter

import numpy as np

from primer._checks import float_array, nonneg_int, positive_int
from primer.config import Config
from primer.kv_cache import KVCache, decode_cached
from primer.softmax import softmax
from primer.transformer import validate_tokens

GREEDY_HINT = "T -> 0 is greedy decoding: call greedy(logits) or sample(logits, 0, greedy=True)"


def _temperature(value, *, allow_zero=False):
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise ValueError(f"temperature must be a number, got {value!r}")
    t = float(value)
    if not np.isfinite(t):
        raise ValueError(f"temperature must be finite, got {value!r}")
    if allow_zero and t < 0:
        raise ValueError(f"temperature must be >= 0 with greedy=True, got {t}")
    if not allow_zero and t <= 0:
        raise ValueError(f"temperature must be > 0 to sample, got {t}; {GREEDY_HINT}")
    return t


def _vector(name, value):
    arr = float_array(name, value)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be 1-D (one score per vocabulary entry), got shape {arr.shape}")
    return arr


def _generator(rng):
    if not isinstance(rng, np.random.Generator):
        raise ValueError(f"rng must be a numpy Generator, e.g. np.random.default_rng(0), got {rng!r}")
    return rng


# ---- one token from one row of scores


def temperature_softmax(logits, temperature=1.0):  # [..., vocab] -> [..., vocab]
    """Return softmax(logits / temperature) over the last axis; temperature must be > 0."""
    logits = float_array("logits", logits)
    return softmax(logits / _temperature(temperature))


def greedy(logits):  # [vocab] -> int
    """Return the id of the largest logit (the T -> 0 limit); ties go to the lowest id."""
    return int(np.argmax(_vector("logits", logits)))


_greedy = greedy  # sample's keyword `greedy` hides the function inside it


def _distribution(probs):
    probs = _vector("probs", probs)
    if np.any(probs < 0) or not np.isclose(probs.sum(), 1.0):
        raise ValueError(f"probs must be non-negative and sum to 1, got sum {probs.sum()}")
    return probs


def draw(probs, rng, n=1):  # [vocab] -> [n]
    """Draw n ids from probs by inverse CDF, one uniform number each; an id of probability 0 never comes up."""
    probs = _distribution(probs)
    n = positive_int("n", n)
    cdf = np.cumsum(probs)
    u = _generator(rng).random(n) * cdf[-1]
    return np.minimum(np.searchsorted(cdf, u, side="right"), probs.size - 1)


def _ranked(probs):
    # ids from most to least likely; a stable sort puts the lower id first among equal probabilities
    return np.argsort(-probs, kind="stable")


def _keep(probs, kept):
    out = np.zeros_like(probs)
    out[kept] = probs[kept]
    return out / out.sum()


def top_k_filter(probs, k):  # [vocab] -> [vocab]
    """Keep the k most likely ids (ties: lower id first), zero the rest and renormalise."""
    probs = _distribution(probs)
    if isinstance(k, (bool, np.bool_)) or not isinstance(k, numbers.Integral) or not 1 <= k <= probs.size:
        raise ValueError(f"top_k must be an integer in 1..{probs.size} (the vocabulary size), got {k!r}")
    return _keep(probs, _ranked(probs)[: int(k)])


def top_p_filter(probs, p):  # [vocab] -> [vocab]
    """Keep the smallest set of most likely ids whose mass reaches p (nucleus), zero the rest and renormalise.

    Ties at the edge go to the lower id.
    """
    probs = _distribution(probs)
    if isinstance(p, (bool, np.bool_)) or not isinstance(p, numbers.Real) or not 0 < float(p) <= 1:
        raise ValueError(f"top_p must be a number in (0, 1], got {p!r}")
    order = _ranked(probs)
    mass = np.cumsum(probs[order])
    n_kept = min(int(np.searchsorted(mass, float(p), side="left")) + 1, probs.size)  # first prefix with mass >= p
    return _keep(probs, order[:n_kept])


def sampling_probs(logits, temperature=1.0, *, top_k=None, top_p=None):  # [vocab] -> [vocab]
    """Return the distribution `sample` draws from: softmax(logits / T), then top-k, then top-p, each renormalised."""
    probs = temperature_softmax(_vector("logits", logits), temperature)
    if top_k is not None:
        probs = top_k_filter(probs, top_k)
    if top_p is not None:
        probs = top_p_filter(probs, top_p)
    return probs


def sample(logits, temperature=1.0, *, rng=None, greedy=False, top_k=None, top_p=None):  # [vocab] -> int
    """Draw one id from softmax(logits / temperature) filtered by top_k / top_p, with rng; greedy=True: the argmax.

    temperature <= 0 raises unless greedy=True is asked for explicitly; the argmax survives both
    filters, so greedy ignores them.
    """
    logits = _vector("logits", logits)
    if greedy:
        _temperature(temperature, allow_zero=True)
        if top_k is not None or top_p is not None:
            sampling_probs(logits, 1.0, top_k=top_k, top_p=top_p)  # still refuse a bad k or p
        return _greedy(logits)
    probs = sampling_probs(logits, temperature, top_k=top_k, top_p=top_p)
    return int(draw(probs, rng, 1)[0])


def frequencies(logits, temperature, n_draws, seed, *, top_k=None, top_p=None):  # [vocab] -> [vocab]
    """Return each id's share among n_draws samples from a numpy Generator seeded with seed."""
    probs = sampling_probs(logits, temperature, top_k=top_k, top_p=top_p)
    n_draws = positive_int("n_draws", n_draws)
    rng = np.random.default_rng(nonneg_int("seed", seed))
    ids = draw(probs, rng, n_draws)
    return np.bincount(ids, minlength=probs.size) / n_draws


def entropy_nats(probs):  # [vocab] -> float
    """Return the entropy of a distribution in nats, the site's one unit (0 for one-hot, ln(vocab) for uniform)."""
    probs = _vector("probs", probs)
    nz = probs[probs > 0]
    return float(-(nz * np.log(nz)).sum())


# ---- the loop


def generate(
    prompt,
    params,
    cfg,
    n_new,
    *,
    cached=False,
    greedy=True,
    temperature=1.0,
    top_k=None,
    top_p=None,
    rng=None,
    enc_out=None,
    enc_kv=None,
    ops=None,
    record=None,
):  # [n] -> [n + n_new]
    """Return the prompt followed by n_new tokens: predict the next token, append it, run again.

    Without a cache every step runs the whole prefix; cached=True runs only the newest token and
    reads the earlier keys and values from a KVCache. greedy=True takes the argmax; greedy=False
    draws from softmax(logits / temperature), filtered by top_k / top_p, with rng. enc_out (the
    encoder's output) or enc_kv (its K/V, projected once) makes the decoder that of an
    encoder-decoder. Pass a Counter as ops
    to count the work, and a list as record to receive each step's
    {"input": the prefix, "logits": its last row, "next": the chosen id}.
    """
    tokens = list(validate_tokens(prompt, cfg))
    n_new = nonneg_int("n_new", n_new)
    if len(tokens) + n_new - 1 > cfg.max_len:  # the last token is chosen, never run
        raise ValueError(f"len(prompt) + n_new - 1 must be <= max_len={cfg.max_len}, got {len(tokens) + n_new - 1}")
    cache = KVCache(cfg) if cached else None
    for _ in range(n_new):
        seen = cache.length if cached else 0  # a cache already holds all but the newest token
        last = decode_cached(np.array(tokens[seen:]), params, cfg, cache, ops, enc_out=enc_out, enc_kv=enc_kv)[-1]
        nxt = sample(last, temperature, rng=rng, greedy=greedy, top_k=top_k, top_p=top_p)
        if record is not None:
            record.append({"input": np.array(tokens), "logits": last, "next": nxt})
        tokens.append(nxt)
    return np.array(tokens, dtype=int)


def measured_ops(n_steps, params, cfg, cached, first_token=1):  # -> Counter
    """Run n_steps steps of greedy generation from a one-token prompt and return the work generate counted.

    primer.counts.predicted_ops gives the same counters from the shape alone.
    """
    n = positive_int("n_steps", n_steps)
    if not isinstance(cfg, Config):
        raise ValueError(f"cfg must be a primer.config.Config, got {type(cfg).__name__}")
    if n > cfg.max_len:
        raise ValueError(f"n_steps must be <= max_len={cfg.max_len}, got {n}")
    ops = Counter()
    generate(np.array([first_token]), params, cfg, n, cached=bool(cached), ops=ops)
    return ops

"""Turning next-token scores into one token: temperature, greedy choice, seeded sampling."""

import numbers

import numpy as np

from primer._checks import float_array, nonneg_int, positive_int
from primer.softmax import softmax

# Five candidate next words after "the cat sat on the ..." and illustrative logits for them
# (typed in, not produced by a trained model). The words themselves live in the figure labels.
NEXT_LOGITS = np.array([2.0, 1.0, 0.5, -0.5, -1.5])

# The temperatures the page's slider runs over, and the ones its table prints.
SLIDER_TEMPERATURES = tuple(round(0.1 * i, 1) for i in range(1, 21))
TABLE_TEMPERATURES = (0.5, 1.0, 2.0)

# How many seeded draws the empirical frequencies are counted over.
N_DRAWS = 10_000
DRAW_SEED = 0

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


def temperature_softmax(logits, temperature=1.0):  # [..., vocab] -> [..., vocab]
    """Return softmax(logits / temperature) over the last axis; temperature must be > 0."""
    logits = float_array("logits", logits)
    return softmax(logits / _temperature(temperature))


def greedy(logits):  # [vocab] -> int
    """Return the id of the largest logit (the T -> 0 limit); ties go to the lowest id."""
    return int(np.argmax(_vector("logits", logits)))


def draw(probs, rng, n=1):  # [vocab] -> [n]
    """Draw n ids from probs by inverse CDF, one uniform number each; an id of probability 0 never comes up."""
    probs = _vector("probs", probs)
    if np.any(probs < 0) or not np.isclose(probs.sum(), 1.0):
        raise ValueError(f"probs must be non-negative and sum to 1, got sum {probs.sum()}")
    n = positive_int("n", n)
    cdf = np.cumsum(probs)
    u = _generator(rng).random(n) * cdf[-1]
    return np.minimum(np.searchsorted(cdf, u, side="right"), probs.size - 1)


def sample(logits, temperature=1.0, *, rng=None, greedy=False):  # [vocab] -> int
    """Draw one id from softmax(logits / temperature) with rng; greedy=True takes the argmax instead.

    temperature <= 0 raises unless greedy=True is asked for explicitly.
    """
    logits = _vector("logits", logits)
    if greedy:
        _temperature(temperature, allow_zero=True)
        return int(np.argmax(logits))
    probs = softmax(logits / _temperature(temperature))
    return int(draw(probs, rng, 1)[0])


def frequencies(logits, temperature, n_draws, seed):  # [vocab] -> [vocab]
    """Return each id's share among n_draws samples from a numpy Generator seeded with seed."""
    probs = temperature_softmax(_vector("logits", logits), temperature)
    n_draws = positive_int("n_draws", n_draws)
    rng = np.random.default_rng(nonneg_int("seed", seed))
    ids = draw(probs, rng, n_draws)
    return np.bincount(ids, minlength=probs.size) / n_draws


def entropy_bits(probs):  # [vocab] -> float
    """Return the entropy of a distribution in bits (0 for one-hot, log2(vocab) for uniform)."""
    probs = _vector("probs", probs)
    nz = probs[probs > 0]
    return float(-(nz * np.log2(nz)).sum())

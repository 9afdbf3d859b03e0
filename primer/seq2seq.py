"""Bahdanau (additive) attention over encoder states, and made-up word pairs whose alignment it finds."""

import numpy as np

from primer._checks import float_array, positive_int
from primer.softmax import softmax

# Made-up translation pairs for the alignment figure. Each word carries a concept tag (or a tuple
# of tags: "bought" is both 买 and 了); words that translate each other share a tag. Nothing here
# is learned.
EXAMPLES = {
    "zh-en": (
        [("我", "I"), ("昨天", "yesterday"), ("买", "buy"), ("了", "past"), ("苹果", "apple"), ("<eos>", "eos")],
        [("I", "I"), ("bought", ("buy", "past")), ("apples", "apple"), ("yesterday", "yesterday"), ("<eos>", "eos")],
    ),
    "en-fr": (
        [("the", "the"), ("black", "black"), ("cat", "cat"), ("sleeps", "sleep"), ("<eos>", "eos")],
        [("le", "the"), ("chat", "cat"), ("noir", "black"), ("dort", "sleep"), ("<eos>", "eos")],
    ),
    "en-fr-2": (
        [("I", "I"), ("love", "love"), ("you", "you"), ("<eos>", "eos")],
        [("je", "I"), ("t'", "you"), ("aime", "love"), ("<eos>", "eos")],
    ),
}
DEFAULT_EXAMPLE = "zh-en"

# How the made-up states are built: an encoder state keeps CARRY of the previous word's concept
# (an RNN state remembers a little of what came before); the scorer's units fire with GAIN when
# both states carry their concept, and SHARPNESS scales v.
CARRY = 0.3
GAIN = 4.0
SHARPNESS = 2.5


def additive_scores(s, h, w, u, v):  # [n_t, d_s], [n_s, d_h], [d_a, d_s], [d_a, d_h], [d_a] -> [n_t, n_s]
    """Return Bahdanau's scores e_ij = v . tanh(W s_i + U h_j) for every decoder state i and encoder state j."""
    s = float_array("s", s, min_ndim=2)
    h = float_array("h", h, min_ndim=2)
    w = float_array("w", w, min_ndim=2)
    u = float_array("u", u, min_ndim=2)
    v = float_array("v", v)
    if s.ndim != 2 or h.ndim != 2:
        raise ValueError(f"s must be [n_t, d_s] and h [n_s, d_h], got shapes {s.shape} and {h.shape}")
    if v.ndim != 1:
        raise ValueError(f"v must be a vector [d_a], got shape {v.shape}")
    if w.shape != (v.shape[0], s.shape[1]):
        raise ValueError(f"w must be [d_a, d_s] = {(v.shape[0], s.shape[1])}, got shape {w.shape}")
    if u.shape != (v.shape[0], h.shape[1]):
        raise ValueError(f"u must be [d_a, d_h] = {(v.shape[0], h.shape[1])}, got shape {u.shape}")
    hidden = np.tanh((s @ w.T)[:, None, :] + (h @ u.T)[None, :, :])  # [n_t, n_s, d_a]: every pair, one small MLP
    return hidden @ v


def bahdanau_attention(s, h, w, u, v):  # [n_t, d_s], [n_s, d_h], [d_a, d_s], [d_a, d_h], [d_a] -> ([n_t, d_h], [n_t, n_s])
    """Return (contexts c_i = sum_j alpha_ij h_j, weights alpha_i = softmax over j of the additive scores)."""
    alpha = softmax(additive_scores(s, h, w, u, v))
    return alpha @ np.asarray(h, dtype=float), alpha


def concept_states(tags, *, carry=CARRY):  # [n, k] -> [n, k + 1]
    """Return made-up states: each word's concept indicators, plus carry x the previous word's, plus a constant 1."""
    tags = float_array("tags", tags, min_ndim=2)
    if tags.ndim != 2:
        raise ValueError(f"tags must be [n words, k concepts], got shape {tags.shape}")
    carry = float(carry)
    if not np.isfinite(carry):
        raise ValueError(f"carry must be finite, got {carry}")
    states = np.hstack([tags, np.ones((tags.shape[0], 1))])
    states[1:, :-1] += carry * tags[:-1]
    return states


def concept_scorer(n_concepts, *, gain=GAIN, sharpness=SHARPNESS):  # -> ([d_a, d_s], [d_a, d_h], [d_a])
    """Return (W, U, v) with one unit per concept: unit a fires only if both s and h carry concept a.

    Its pre-activation is gain * (s_a + h_a - 1.5), the -1.5 coming from h's constant feature,
    so it is positive only when both halves are near 1, an AND that an additive score can express.
    """
    k = positive_int("n_concepts", n_concepts)
    gain, sharpness = float(gain), float(sharpness)
    if not (np.isfinite(gain) and gain > 0):
        raise ValueError(f"gain must be a finite number > 0, got {gain}")
    if not (np.isfinite(sharpness) and sharpness > 0):
        raise ValueError(f"sharpness must be a finite number > 0, got {sharpness}")
    w = np.hstack([gain * np.eye(k), np.zeros((k, 1))])
    u = np.hstack([gain * np.eye(k), np.full((k, 1), -1.5 * gain)])
    return w, u, np.full(k, sharpness)


def _tags(words, ids):
    tags = np.zeros((len(words), len(ids)))
    for i, (_, tag) in enumerate(words):
        for t in (tag,) if isinstance(tag, str) else tag:
            tags[i, ids[t]] = 1.0
    return tags


def alignment(name=DEFAULT_EXAMPLE):  # str -> (list[str], list[str], [n_t, n_s])
    """Return (source words, target words, Bahdanau weights) of one made-up example from EXAMPLES."""
    if name not in EXAMPLES:
        raise ValueError(f"name must be one of {sorted(EXAMPLES)}, got {name!r}")
    source, target = EXAMPLES[name]
    names = sorted({t for _, tag in source + target for t in ((tag,) if isinstance(tag, str) else tag)})
    ids = {t: i for i, t in enumerate(names)}
    h = concept_states(_tags(source, ids))           # encoder states h_j
    s = concept_states(_tags(target, ids), carry=0)  # what the decoder looks for at step i
    _, alpha = bahdanau_attention(s, h, *concept_scorer(len(names)))
    return [w for w, _ in source], [w for w, _ in target], alpha

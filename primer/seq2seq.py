"""Bahdanau (additive) attention over encoder states, and the made-up states whose alignment it finds."""

import numpy as np

from primer._checks import float_array, positive_int
from primer.scores import additive_score
from primer.softmax import softmax

# How the made-up states are built: an encoder state keeps CARRY of the previous word's concept
# (an RNN state remembers a little of what came before); the scorer's units fire with GAIN when
# both states carry their concept, and SHARPNESS scales v.
CARRY = 0.3
GAIN = 4.0
SHARPNESS = 2.5


def bahdanau_attention(
    s, h, w_s, w_h, v
):  # [n_t, d_s], [n_s, d_h], [d_s, d_a], [d_h, d_a], [d_a] -> ([n_t, d_h], [n_t, n_s])
    """Return (contexts c_i = sum_j alpha_ij h_j, weights alpha_i = softmax over j of v . tanh(s_i W_s + h_j W_h))."""
    s = float_array("s", s, min_ndim=2)
    h = float_array("h", h, min_ndim=2)
    if s.ndim != 2 or h.ndim != 2:
        raise ValueError(f"s must be [n_t, d_s] and h [n_s, d_h], got shapes {s.shape} and {h.shape}")
    alpha = softmax(additive_score(s, h, w_s, w_h, v))  # decoder states ask, encoder states answer
    return alpha @ h, alpha


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


def concept_scorer(n_concepts, *, gain=GAIN, sharpness=SHARPNESS):  # -> ([d_s, d_a], [d_h, d_a], [d_a])
    """Return (W_s, W_h, v) with one unit per concept: unit a fires only if both s and h carry concept a.

    Its pre-activation is gain * (s_a + h_a - 1.5), the -1.5 coming from h's constant feature,
    so it is positive only when both halves are near 1, an AND that an additive score can express.
    """
    k = positive_int("n_concepts", n_concepts)
    gain, sharpness = float(gain), float(sharpness)
    if not (np.isfinite(gain) and gain > 0):
        raise ValueError(f"gain must be a finite number > 0, got {gain}")
    if not (np.isfinite(sharpness) and sharpness > 0):
        raise ValueError(f"sharpness must be a finite number > 0, got {sharpness}")
    w_s = np.vstack([gain * np.eye(k), np.zeros((1, k))])  # s's constant feature: no effect
    w_h = np.vstack([gain * np.eye(k), np.full((1, k), -1.5 * gain)])  # h's constant feature: the threshold
    return w_s, w_h, np.full(k, sharpness)


def _strengths(tag, arg="a"):
    """Return {concept: strength} of one word's tag: a name, a tuple of names (strength 1 each), or a mapping."""
    if isinstance(tag, str):
        return {tag: 1.0}
    if isinstance(tag, dict):
        for name, strength in tag.items():
            if not (isinstance(strength, (int, float)) and 0 < strength <= 1):
                raise ValueError(f"{arg} tag strength of {name!r} must be a number in (0, 1], got {strength!r}")
        return {name: float(strength) for name, strength in tag.items()}
    return {name: 1.0 for name in tag}


def _tags(words, ids):
    tags = np.zeros((len(words), len(ids)))
    for i, (_, tag) in enumerate(words):
        for t, strength in _strengths(tag).items():
            tags[i, ids[t]] = strength
    return tags


def alignment(source, target):  # ((word, tag(s)), ...) x2 -> (list[str], list[str], [n_t, n_s])
    """Return (source words, target words, Bahdanau weights) of a made-up pair; words with a tag in common translate.

    A tag is a concept name, a tuple of names, or a mapping {name: strength in (0, 1]} for a word
    that carries one concept fully and another only in part.
    """
    source, target = list(source), list(target)
    if not source or not target:
        raise ValueError("source and target must each hold at least one (word, tag) pair")
    names = sorted(
        {t for arg, pairs in (("source", source), ("target", target)) for _, tag in pairs for t in _strengths(tag, arg)}
    )
    ids = {t: i for i, t in enumerate(names)}
    h = concept_states(_tags(source, ids))  # encoder states h_j
    s = concept_states(_tags(target, ids), carry=0)  # what the decoder looks for at step i
    _, alpha = bahdanau_attention(s, h, *concept_scorer(len(names)))
    return [w for w, _ in source], [w for w, _ in target], alpha

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from site_reader import load_snippet

from primer.inputs.seq2seq import DEFAULT_EXAMPLE, EXAMPLES
from primer.scores import additive_score
from primer.seq2seq import CARRY, alignment, bahdanau_attention, concept_scorer, concept_states


def random_case(seed, n_t=3, n_s=5, d_s=4, d_h=6, d_a=7):  # s, h, w_s [d_s, d_a], w_h [d_h, d_a], v
    rng = np.random.default_rng(seed)
    return (
        rng.normal(size=(n_t, d_s)),
        rng.normal(size=(n_s, d_h)),
        rng.normal(size=(d_s, d_a)),
        rng.normal(size=(d_h, d_a)),
        rng.normal(size=d_a),
    )


def test_weights_are_the_softmax_of_v_tanh_for_every_pair():
    s, h, w, u, v = random_case(0)
    _, alpha = bahdanau_attention(s, h, w, u, v)
    e = np.array([[v @ np.tanh(s[i] @ w + h[j] @ u) for j in range(5)] for i in range(3)])
    assert np.allclose(alpha, np.exp(e) / np.exp(e).sum(axis=1, keepdims=True))


@settings(max_examples=50)
@given(st.integers(0, 10_000), st.integers(1, 6), st.integers(1, 8))
def test_weights_are_a_distribution_and_contexts_their_average(seed, n_t, n_s):
    s, h, w, u, v = random_case(seed, n_t=n_t, n_s=n_s)
    c, alpha = bahdanau_attention(s, h, w, u, v)
    assert alpha.shape == (n_t, n_s) and c.shape == (n_t, h.shape[1])
    assert np.all(alpha >= 0) and np.allclose(alpha.sum(axis=1), 1.0)
    assert np.allclose(c, alpha @ h)
    assert np.all(c <= h.max(axis=0) + 1e-12) and np.all(c >= h.min(axis=0) - 1e-12)  # a convex combination


@given(st.integers(0, 10_000))
def test_permuting_the_source_permutes_the_weights_and_keeps_the_context(seed):
    s, h, w, u, v = random_case(seed)
    perm = np.random.default_rng(seed).permutation(len(h))
    c, alpha = bahdanau_attention(s, h, w, u, v)
    c2, alpha2 = bahdanau_attention(s, h[perm], w, u, v)
    assert np.allclose(alpha2, alpha[:, perm]) and np.allclose(c2, c)


def test_one_source_word_gets_all_the_weight():
    s, h, w, u, v = random_case(1, n_s=1)
    c, alpha = bahdanau_attention(s, h, w, u, v)
    assert np.allclose(alpha, 1.0) and np.allclose(c, np.repeat(h, 3, axis=0))


def test_concept_states_carry_the_previous_word_and_a_constant():
    states = concept_states(np.eye(3)[[0, 2]])
    assert states.tolist() == [[1, 0, 0, 1], [CARRY, 0, 1, 1]]


def test_concept_scorer_is_an_and_gate():
    k = 3
    w, u, v = concept_scorer(k)
    s = concept_states(np.eye(k), carry=0)
    h = concept_states(np.eye(k), carry=0)
    e = additive_score(s, h, w, u, v)
    assert np.all(np.diag(e) > e.max(axis=1, initial=-np.inf, where=~np.eye(k, dtype=bool)))


@pytest.mark.parametrize(
    "name, expected",
    [
        ("zh-en", {"I": "我", "bought": "买", "apples": "苹果", "yesterday": "昨天", "<eos>": "<eos>"}),
        ("en-fr", {"le": "the", "chat": "cat", "noir": "black", "dort": "sleeps", "<eos>": "<eos>"}),
        ("en-fr-2", {"je": "I", "t'": "you", "aime": "love", "<eos>": "<eos>"}),
    ],
)
def test_made_up_alignments_follow_meaning(name, expected):
    source, target, alpha = alignment(*EXAMPLES[name])
    assert {t: source[int(np.argmax(row))] for t, row in zip(target, alpha)} == expected
    assert np.allclose(alpha.sum(axis=1), 1.0)


def test_bought_leads_with_mai_and_gives_le_a_share():
    source, target, alpha = alignment(*EXAMPLES["zh-en"])
    row = alpha[target.index("bought")]
    mai, le = row[source.index("买")], row[source.index("了")]
    assert mai + le > 0.95 and mai > le > 0.2  # the verb leads, the past-tense particle takes a real share
    assert DEFAULT_EXAMPLE in EXAMPLES


def test_standalone_numpy_snippet_equals_primer():
    namespace = load_snippet("02-seq2seq/bahdanau_numpy.py")
    for seed in range(10):
        case = random_case(seed, n_t=seed % 4 + 1, n_s=seed % 5 + 1)
        s, h, w, u, v = case
        c, alpha = namespace["bahdanau"](s, h, w.T, u.T, v)  # the page's numpy follows the paper: W s_i, [d_a, d_s]
        c2, alpha2 = bahdanau_attention(*case)
        assert np.allclose(alpha, alpha2, atol=1e-14) and np.allclose(c, c2, atol=1e-14)

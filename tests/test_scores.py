import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from site_reader import load_snippet

from primer import attention, softmax
from primer.inputs.attention import SCORE_K, SCORE_Q, SCORE_V, SCORE_W_BILINEAR, SCORE_W_K, SCORE_W_Q, VARIANCE_DKS
from primer.scores import (
    additive_score,
    bilinear_score,
    dot_score,
    scaled_dot_score,
    score_variance,
    softmax_saturation,
)

seeds = st.integers(0, 2**32 - 1)


def draw(seed, n_q, n_k, d):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n_q, d)), rng.normal(size=(n_k, d)), rng


@settings(max_examples=40)
@given(seeds, st.integers(1, 6), st.integers(1, 6), st.integers(1, 8))
def test_each_score_matches_a_loop_over_pairs(seed, n_q, n_k, d):
    q, k, rng = draw(seed, n_q, n_k, d)
    w = rng.normal(size=(d, d))
    w_q, w_k, v = rng.normal(size=(d, 5)), rng.normal(size=(d, 5)), rng.normal(size=5)
    for i in range(n_q):
        for j in range(n_k):
            assert np.isclose(dot_score(q, k)[i, j], q[i] @ k[j])
            assert np.isclose(scaled_dot_score(q, k)[i, j], q[i] @ k[j] / np.sqrt(d))
            assert np.isclose(bilinear_score(q, k, w)[i, j], q[i] @ w @ k[j])
            assert np.isclose(additive_score(q, k, w_q, w_k, v)[i, j], v @ np.tanh(q[i] @ w_q + k[j] @ w_k))


@settings(max_examples=40)
@given(seeds, st.integers(1, 6), st.integers(1, 6), st.integers(1, 8))
def test_scaled_dot_is_what_attention_uses(seed, n_q, n_k, d):
    q, k, rng = draw(seed, n_q, n_k, d)
    v = rng.normal(size=(n_k, 2))
    assert np.allclose(softmax(scaled_dot_score(q, k)), attention(q, k, v)[1])


@given(seeds, st.integers(1, 8))
def test_bilinear_with_identity_is_the_dot_product(seed, d):
    q, k, _ = draw(seed, 3, 4, d)
    assert np.allclose(bilinear_score(q, k, np.eye(d)), dot_score(q, k))


@given(seeds)
def test_scaling_never_changes_the_ranking(seed):
    q, k, _ = draw(seed, 1, 6, 4)
    assert np.array_equal(np.argsort(dot_score(q, k)[0]), np.argsort(scaled_dot_score(q, k)[0]))


def test_leading_axes_broadcast():
    rng = np.random.default_rng(0)
    q, k = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 5, 4))
    s = additive_score(q, k, rng.normal(size=(4, 6)), rng.normal(size=(4, 6)), rng.normal(size=6))
    assert s.shape == (2, 3, 5)
    assert dot_score(q, k).shape == (2, 3, 5)


def test_the_chapter_3_table_values():
    # The dot product prefers the longer key 1 over key 0, which points the same way; scaling keeps the order.
    dot = dot_score(SCORE_Q, SCORE_K)[0]
    assert dot.tolist() == [2.5, 5.0, 0.0, -2.25]
    assert np.allclose(scaled_dot_score(SCORE_Q, SCORE_K)[0], dot / 2)
    assert [f"{x:+.2f}" for x in additive_score(SCORE_Q, SCORE_K, SCORE_W_Q, SCORE_W_K, SCORE_V)[0]] == [
        "+0.63",
        "+1.28",
        "-2.64",
        "-2.36",
    ]
    assert [f"{x:+.2f}" for x in bilinear_score(SCORE_Q, SCORE_K, SCORE_W_BILINEAR)[0]] == [
        "-0.27",
        "-0.55",
        "-3.38",
        "-0.97",
    ]


@pytest.mark.parametrize("d_k", VARIANCE_DKS)
def test_f9_variance_is_d_k_unscaled_and_1_scaled(d_k):
    unscaled, scaled = score_variance(d_k, n_samples=20_000, seed=0)
    assert abs(unscaled / d_k - 1) < 0.05
    assert abs(scaled - 1) < 0.05
    assert np.isclose(unscaled, scaled * d_k)


def test_f9_printed_values():
    printed = [(f"{u:.1f}", f"{s:.2f}") for u, s in (score_variance(d, 20_000, 0) for d in VARIANCE_DKS)]
    assert printed == [("4.0", "1.00"), ("16.0", "1.00"), ("64.6", "1.01"), ("261.7", "1.02"), ("1036.2", "1.01")]


def test_variance_does_not_depend_on_the_chunking():
    # 2,000,000 // 1024 = 1953 rows per chunk: 5,000 samples span three chunks.
    a = score_variance(1024, n_samples=5_000, seed=1)
    rng = np.random.default_rng(1)
    dots = []
    for size in (1953, 1953, 1094):
        q, k = rng.standard_normal((size, 1024)), rng.standard_normal((size, 1024))
        dots.append(np.einsum("nd,nd->n", q, k))
    assert np.isclose(a[0], np.concatenate(dots).var())


def test_f9_unscaled_softmax_saturates_and_scaled_does_not():
    rows = [softmax_saturation(d, n_keys=16, n_trials=2_000, seed=0) for d in VARIANCE_DKS]
    unscaled = [r["unscaled"]["max_weight"] for r in rows]
    scaled = [r["scaled"]["max_weight"] for r in rows]
    assert all(a < b for a, b in zip(unscaled, unscaled[1:]))  # more peaked as d_k grows
    assert unscaled[-1] > 0.9 and max(scaled) - min(scaled) < 0.03  # scaled hardly moves
    entropies = [r["unscaled"]["entropy"] for r in rows]
    assert all(a > b for a, b in zip(entropies, entropies[1:]))
    assert all(r["scaled"]["entropy"] < r["uniform_entropy"] for r in rows)
    assert np.isclose(rows[0]["uniform_entropy"], np.log(16))


def test_chapter_3_core_numpy_equals_primer():
    core = load_snippet("03-attention/core_numpy.py")
    from primer.gradcheck import self_attention

    rng = np.random.default_rng(5)
    for n_q, n_k, d in ((1, 1, 1), (3, 5, 4), (6, 2, 7)):
        q, k = rng.normal(size=(n_q, d)), rng.normal(size=(n_k, d))
        w, w_q, w_k, v = rng.normal(size=(d, d)), rng.normal(size=(d, 3)), rng.normal(size=(d, 3)), rng.normal(size=3)
        assert np.allclose(core["dot_score"](q, k), dot_score(q, k))
        assert np.allclose(core["scaled_dot_score"](q, k), scaled_dot_score(q, k))
        assert np.allclose(core["bilinear_score"](q, k, w), bilinear_score(q, k, w))
        assert np.allclose(core["additive_score"](q, k, w_q, w_k, v), additive_score(q, k, w_q, w_k, v))
        x = rng.normal(size=(n_q, d))
        ws = [rng.normal(size=(d, 3)) for _ in range(3)]
        assert np.allclose(core["self_attention"](x, *ws), self_attention(x, *ws))


def test_seeded_draws_are_remembered_and_each_caller_gets_its_own_copy():
    first = softmax_saturation(8, n_keys=4, n_trials=50, seed=3)
    first["scaled"]["max_weight"] = -1.0  # a caller that edits its result must not change the next one's
    again = softmax_saturation(8, n_keys=4, n_trials=50, seed=3)
    assert again["scaled"]["max_weight"] > 0 and again["unscaled"] == first["unscaled"]
    assert score_variance(8, n_samples=100, seed=np.int64(3)) == score_variance(8, n_samples=100, seed=3)


def test_unseeded_draws_are_never_remembered():
    assert score_variance(8, n_samples=100, seed=None) != score_variance(8, n_samples=100, seed=None)
    a, b = (softmax_saturation(8, n_keys=4, n_trials=50, seed=None) for _ in range(2))
    assert a != b

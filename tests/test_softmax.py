import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from primer import additive_mask, causal_mask, masked_softmax, softmax, window_mask
from primer.inputs.mask import FOUR_SCORES, LEAK_KEY, LEAK_ROW, SCORES_3X3

finite = st.floats(-50, 50, allow_nan=False, allow_infinity=False)


def square_scores(n):
    return arrays(float, (n, n), elements=finite)


@given(st.integers(1, 12).flatmap(square_scores))
def test_rows_sum_to_one_and_masked_weight_is_exactly_zero(scores):
    n = scores.shape[0]
    w = masked_softmax(scores, causal_mask(n))
    assert np.allclose(w.sum(axis=-1), 1.0)
    assert np.all(w[~causal_mask(n)] == 0.0)


@given(st.integers(1, 12).flatmap(square_scores), st.floats(-1e3, 1e3), st.integers(0, 11))
def test_adding_a_constant_to_a_row_changes_nothing(scores, c, row):
    n = scores.shape[0]
    row = row % n
    shifted = scores.copy()
    shifted[row] += c
    assert np.allclose(masked_softmax(scores, causal_mask(n)), masked_softmax(shifted, causal_mask(n)), atol=1e-12)


@given(st.integers(1, 12).flatmap(square_scores))
def test_equals_softmax_of_scores_plus_additive_mask(scores):
    n = scores.shape[0]
    m = window_mask(n, 2)
    assert np.allclose(masked_softmax(scores, m), softmax(scores + np.where(m, 0.0, -1e300)))
    assert np.allclose(masked_softmax(scores, m, fill=-5.0), softmax(scores + additive_mask(m, -5.0)))


def test_large_scores_never_overflow():
    w = masked_softmax(np.array([[1000.0, 1001.0]]))
    assert np.all(np.isfinite(w)) and np.allclose(w.sum(), 1.0)


def test_f5_seed_002_table():
    w = masked_softmax(SCORES_3X3, causal_mask(3))
    assert np.round(100 * w).astype(int).tolist() == [[100, 0, 0], [83, 17, 0], [9, 34, 56]]


def test_f1_buggy_mask_leak():
    mask = causal_mask(4)
    correct = masked_softmax(FOUR_SCORES, mask)[LEAK_ROW]
    buggy = masked_softmax(FOUR_SCORES, mask, fill=0.0)[LEAK_ROW]
    assert f"{100 * buggy[LEAK_KEY]:.1f}" == "64.4"
    assert [f"{100 * x:.1f}" for x in correct] == ["9.0", "24.5", "66.5", "0.0"]


def test_w16_row_zero_gets_everything():
    assert masked_softmax(FOUR_SCORES, causal_mask(4))[0].tolist() == [1.0, 0.0, 0.0, 0.0]


def test_zero_fill_on_an_empty_row_is_allowed_and_uniform():
    # The buggy rule never notices an empty row: it quietly spreads the weight.
    w = masked_softmax(np.zeros((1, 2)), np.zeros((1, 2), bool), fill=0.0)
    assert w.tolist() == [[0.5, 0.5]]


def test_the_buggy_row_2_equals_the_correct_row_3():
    # The page says so: with fill=0 query 2 reads exactly what query 3 reads under the -inf mask.
    mask = causal_mask(4)
    assert np.allclose(
        masked_softmax(FOUR_SCORES, mask, fill=0.0)[LEAK_ROW], masked_softmax(FOUR_SCORES, mask)[LEAK_ROW + 1]
    )


def test_replace_puts_fill_in_place_of_the_closed_score():
    """masked_fill(…, 0) and adding 0 are different bugs; under −∞ both ways agree."""
    scores = np.arange(4.0)[None, :]
    mask = np.array([[True, True, True, False]])
    added = masked_softmax(scores, mask, fill=0.0)[0]
    replaced = masked_softmax(scores, mask, fill=0.0, replace=True)[0]
    assert np.allclose(added, np.exp(scores[0]) / np.exp(scores[0]).sum())
    assert np.allclose(replaced, np.exp([0.0, 1.0, 2.0, 0.0]) / np.exp([0.0, 1.0, 2.0, 0.0]).sum())
    assert replaced[3] < added[3]
    assert np.array_equal(masked_softmax(scores, mask, replace=True), masked_softmax(scores, mask))

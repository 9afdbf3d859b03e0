import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from primer import additive_mask, causal_mask, full_mask, window_mask

sizes = st.integers(1, 40)


def test_causal_mask_is_lower_triangular():
    assert causal_mask(3).tolist() == [[True, False, False], [True, True, False], [True, True, True]]


@given(sizes)
def test_single_query_over_a_prefix_reads_everything(n):
    assert causal_mask(1, n).all()


@given(sizes, sizes)
def test_rectangular_causal_mask_aligns_bottom_right(n_q, extra):
    n_k = n_q + extra
    m = causal_mask(n_q, n_k)
    assert m.shape == (n_q, n_k)
    assert np.array_equal(m, causal_mask(n_k)[-n_q:])


@given(sizes, sizes)
def test_full_mask_is_all_open(n_q, n_k):
    m = full_mask(n_q, n_k)
    assert m.shape == (n_q, n_k) and m.dtype == bool and m.all()


@given(sizes, st.integers(0, 50))
def test_window_at_least_n_equals_causal(n, extra):
    assert np.array_equal(window_mask(n, n + extra), causal_mask(n))


@given(sizes, st.integers(1, 50))
def test_window_keeps_diagonal_and_band(n, w):
    m = window_mask(n, w)
    assert m.diagonal().all()
    i, j = np.indices((n, n))
    assert np.array_equal(m, (j <= i) & (i - j < w))


@given(sizes, st.integers(1, 50))
def test_every_row_reads_the_window_most_recent_keys_including_itself(n, w):
    m = window_mask(n, w)
    assert m.sum(axis=1).tolist() == [min(i + 1, w) for i in range(n)]
    assert m[-1].sum() == min(n, w)


def test_window_one_is_the_diagonal():
    assert np.array_equal(window_mask(4, 1), np.eye(4, dtype=bool))


def test_window_matches_hugging_faces_sliding_window_3_example():
    # The 5 x 5 example in the docstring of transformers' masking_utils.sdpa_mask, sliding_window=3
    # (source: huggingface/transformers, src/transformers/masking_utils.py, commit 00c4411).
    published = ["■⬚⬚⬚⬚", "■■⬚⬚⬚", "■■■⬚⬚", "⬚■■■⬚", "⬚⬚■■■"]
    assert window_mask(5, 3).tolist() == [[c == "■" for c in row] for row in published]


def test_additive_mask_values():
    add = additive_mask(causal_mask(2))
    assert add.tolist() == [[0.0, -np.inf], [0.0, 0.0]]
    assert additive_mask(causal_mask(2), fill=-1e9)[0, 1] == -1e9

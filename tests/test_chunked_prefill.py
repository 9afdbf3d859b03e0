import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from primer import attention, causal_mask
from primer.chunked_prefill import aligned_causal_mask, alignment_error, chunked_prefill
from primer.rounding import is_rounding


def qkv(seed, n):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, 4)), rng.normal(size=(n, 4)), rng.normal(size=(n, 3))


@given(st.integers(1, 30), st.integers(1, 12), st.integers(0, 2**16))
def test_chunked_prefill_bottom_right_equals_one_shot(n, c, seed):
    q, k, v = qkv(seed, n)
    assert is_rounding(chunked_prefill(q, k, v, c) - attention(q, k, v, causal_mask(n))[0])


@given(st.integers(2, 30), st.integers(1, 12), st.integers(0, 2**16))
def test_top_left_is_right_only_when_the_chunk_is_the_whole_prompt(n, c, seed):
    q, k, v = qkv(seed, n)
    error = alignment_error(q, k, v, c)
    if c >= n:
        assert is_rounding(error)  # one chunk: n_q == n_k, the alignments agree
    else:
        assert error > 1e-3


def test_the_two_alignments_on_two_queries_over_five_keys():
    assert aligned_causal_mask(2, 5, "bottom_right").astype(int).tolist() == [[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]]
    assert aligned_causal_mask(2, 5, "top_left").astype(int).tolist() == [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0]]

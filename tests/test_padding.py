"""Padding masks (chapter 5): key padding AND the base mask; a padded query reads only itself."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from primer import attention, causal_mask, full_mask
from primer.masks import batch_mask, empty_rows, key_padding_mask
from primer.rounding import BOUND


@st.composite
def batches(draw):
    n = draw(st.integers(1, 8))
    lengths = draw(st.lists(st.integers(1, n), min_size=1, max_size=4))
    return n, lengths, draw(st.booleans()), draw(st.sampled_from(["right", "left"]))


def test_key_padding_mask_marks_real_tokens_on_either_side():
    assert key_padding_mask([2, 4], 4).tolist() == [[True, True, False, False], [True] * 4]
    assert key_padding_mask([2, 4], 4, side="left").tolist() == [[False, False, True, True], [True] * 4]


@given(batches())
def test_real_rows_are_the_and_of_base_and_key_padding(case):
    n, lengths, causal, side = case
    real = key_padding_mask(lengths, n, side=side)
    base = causal_mask(n) if causal else full_mask(n)
    m = batch_mask(lengths, n, causal=causal, side=side)
    assert m.shape == (len(lengths), n, n)
    for b in range(len(lengths)):
        assert np.array_equal(m[b][real[b]], (base & real[b][None, :])[real[b]])
        assert not m[b][:, ~real[b]][real[b]].any()  # no real query reads a pad key


@given(batches())
def test_a_padded_query_reads_only_itself_and_no_row_is_ever_empty(case):
    n, lengths, causal, side = case
    real = key_padding_mask(lengths, n, side=side)
    m = batch_mask(lengths, n, causal=causal, side=side)
    for b in range(len(lengths)):
        assert np.array_equal(m[b][~real[b]], np.eye(n, dtype=bool)[~real[b]])
    assert not empty_rows(m).any()


@given(batches())
def test_the_plain_and_empties_exactly_the_padded_rows_of_left_padding_under_a_causal_mask(case):
    n, lengths, causal, side = case
    plain = batch_mask(lengths, n, causal=causal, side=side, padded_queries="and")
    pad = ~key_padding_mask(lengths, n, side=side)
    expected = pad if (causal and side == "left") else np.zeros_like(pad)
    assert np.array_equal(empty_rows(plain), expected)


@given(batches(), st.integers(0, 2**32 - 1))
def test_real_rows_of_a_padded_batch_equal_each_sentence_alone(case, seed):
    n, lengths, causal, side = case
    x = np.random.default_rng(seed).normal(size=(len(lengths), n, 4))
    real = key_padding_mask(lengths, n, side=side)
    out, weights = attention(x, x, x, batch_mask(lengths, n, causal=causal, side=side))
    for b, length in enumerate(lengths):
        alone = x[b][real[b]]
        base = causal_mask(length) if causal else full_mask(length)
        assert np.abs(out[b][real[b]] - attention(alone, alone, alone, base)[0]).max() < BOUND
        assert np.all(weights[b][real[b]][:, ~real[b]] == 0.0)  # exp(-inf) is exactly 0

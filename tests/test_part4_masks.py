"""Chapters 15-17 run the leak test and check_mask on each of their masks: what their prose says of the results."""

import numpy as np
import pytest
from part4_masks import BUG_KINDS, CLEAN, leak_rows

from primer.chunked_prefill import aligned_causal_mask, prefill_mask
from primer.leak import token_reads
from primer.masks import causal_mask


@pytest.mark.slow
@pytest.mark.parametrize("chapter", [15, 16, 17])
def test_each_mask_passes_both_checks_and_each_planted_bug_fails_both(chapter):
    for case, reads, reach, problems in leak_rows(chapter):
        leaks, blind = int((reads & ~reach).sum()), int((~reads & reach).sum())
        if case in CLEAN:
            assert (leaks, blind, problems) == (0, 0, []), case
        else:
            kinds = {p.kind for p in problems}
            assert kinds == BUG_KINDS[case], (case, problems)
            assert (leaks > 0) == ("leak" in kinds) and (blind > 0) == ("blind" in kinds), (case, leaks, blind)


def test_prefill_mask_is_causal_only_aligned_bottom_right():
    for chunk in (1, 2, 3, 5, 12):
        assert np.array_equal(prefill_mask(12, chunk, "bottom_right"), causal_mask(12))
    top_left = prefill_mask(7, 3, "top_left")  # chunks 0-2, 3-5, 6: each starts over at key 0
    assert np.array_equal(top_left[3:6, :6], aligned_causal_mask(3, 6, "top_left")) and top_left[6].sum() == 1
    assert np.array_equal(prefill_mask(7, 7, "top_left"), causal_mask(7))  # one chunk: the whole prompt


def test_token_reads_finds_exactly_what_a_mask_opens():
    table = np.random.default_rng(0).normal(size=(5, 3))  # token id -> a row

    mask = causal_mask(6)

    def read(tokens):  # each output sums the rows it may read
        return mask.astype(float) @ table[tokens]

    tokens = np.array([0, 1, 2, 3, 4, 0])
    assert np.array_equal(token_reads(read, tokens, 5), causal_mask(6))

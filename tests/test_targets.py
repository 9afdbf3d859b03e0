"""primer.targets: next-token pairs (chapter 7), and chapter 7's numpy core against primer."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from site_reader import load_snippet

from primer.attention import attention
from primer.masks import causal_mask
from primer.mlm import SENTENCE
from primer.rounding import is_rounding
from primer.targets import next_token_pairs


@given(st.lists(st.integers(0, 9), min_size=2, max_size=30))
def test_without_bos_n_tokens_give_n_minus_1_pairs(tokens):
    inputs, targets = next_token_pairs(tokens)
    assert len(inputs) == len(targets) == len(tokens) - 1
    assert all(targets[i] == tokens[i + 1] and inputs[i] == tokens[i] for i in range(len(targets)))


@given(st.lists(st.integers(0, 9), min_size=1, max_size=30))
def test_with_bos_every_token_is_a_target(tokens):
    inputs, targets = next_token_pairs(tokens, bos=-1)
    assert targets == tokens and inputs == [-1] + tokens[:-1]


def test_chapter_7_core_numpy_equals_primer_on_random_inputs():
    core = load_snippet("07-decoder/core_numpy.py")
    rng = np.random.default_rng(7)
    for _ in range(40):
        n, d = int(rng.integers(2, 12)), int(rng.integers(1, 6))
        tokens = list(rng.integers(0, 50, size=n))
        assert core["next_token_pairs"](tokens) == next_token_pairs(tokens)
        assert core["next_token_pairs"](tokens, bos=-1) == next_token_pairs(tokens, bos=-1)
        assert np.array_equal(core["causal_mask"](n), causal_mask(n))
        x = rng.normal(size=(n, d))
        w = [rng.normal(size=(d, 3)) for _ in range(3)]
        ours = core["self_attention"](x, *w, causal_mask(n))
        assert np.allclose(ours, attention(x @ w[0], x @ w[1], x @ w[2], causal_mask(n))[0], atol=1e-12)
        moved = core["leak"](x, n - 1, rng.normal(size=d), w, causal_mask(n))
        assert is_rounding(moved[:-1]) and moved[-1] > 1e-6


def test_the_page_sentence_gives_five_pairs_or_six_with_bos():
    words = list(SENTENCE)
    assert len(next_token_pairs(words)[1]) == len(words) - 1 == 5
    assert len(next_token_pairs(words, bos="<bos>")[1]) == len(words) == 6

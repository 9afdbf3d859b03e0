from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer.generate import (TOY_PROMPT, TOY_SEED, TOY_STEPS, TOY_VOCAB, generate, generate_steps, greedy,
                             next_token, words)
from primer.transformer import Config, decode, init_stack

CFG = Config()
PARAMS = init_stack(TOY_SEED, CFG)


def test_toy_vocabulary_fits_the_default_config():
    assert len(TOY_VOCAB) == CFG.vocab_size == len(set(TOY_VOCAB))
    assert words(TOY_PROMPT) == ["the", "cat", "sat"]
    assert all("<" not in w and ">" not in w for w in TOY_VOCAB)   # plotly would read them as HTML


def test_greedy_takes_the_highest_score():
    assert greedy([0.1, 3.0, -2.0, 2.9]) == 1


def test_next_token_reruns_the_whole_prefix():
    ops = Counter()
    tok, last = next_token(np.array([1, 2, 3, 4]), PARAMS, CFG, ops)
    assert np.array_equal(last, decode(np.array([1, 2, 3, 4]), PARAMS, CFG)[-1])
    assert tok == int(np.argmax(last))
    assert ops["kv_rows"] == CFG.n_layers * 4 and ops["scores"] == CFG.n_layers * CFG.n_heads * 16


def test_each_step_feeds_the_previous_prediction_back_in():
    steps = generate_steps(TOY_PROMPT, PARAMS, CFG, TOY_STEPS)
    assert len(steps) == TOY_STEPS
    assert list(steps[0]["input"]) == list(TOY_PROMPT)
    for before, after in zip(steps, steps[1:]):
        assert list(after["input"]) == list(before["input"]) + [before["next"]]
    for s in steps:
        assert np.array_equal(s["logits"], decode(s["input"], PARAMS, CFG)[-1])
        assert s["next"] == int(np.argmax(s["logits"]))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, CFG.vocab_size - 1), min_size=1, max_size=6), st.integers(0, 6))
def test_generate_appends_n_new_tokens_and_counts_every_rerun(prompt, n_new):
    ops = Counter()
    out = generate(np.array(prompt), PARAMS, CFG, n_new, ops)
    assert list(out[:len(prompt)]) == prompt and len(out) == len(prompt) + n_new
    lengths = range(len(prompt), len(prompt) + n_new)           # step s runs on the whole prefix so far
    assert ops["kv_rows"] == CFG.n_layers * sum(lengths)
    assert ops["scores"] == CFG.n_layers * CFG.n_heads * sum(n * n for n in lengths)


def test_generation_is_deterministic_for_a_seed():
    assert np.array_equal(generate(TOY_PROMPT, PARAMS, CFG, 5), generate(TOY_PROMPT, init_stack(TOY_SEED, CFG), CFG, 5))


@pytest.mark.parametrize("call, words_", [
    (lambda: generate(np.array([1, 2]), PARAMS, CFG, -1), "n_new must be an integer >= 0"),
    (lambda: generate(np.array([1, 2]), PARAMS, CFG, 1.5), "n_new must be an integer >= 0"),
    (lambda: generate(np.array([1, 2]), PARAMS, CFG, CFG.max_len), "len\\(prompt\\) \\+ n_new - 1 must be <= max_len"),
    (lambda: generate(np.array([]), PARAMS, CFG, 2), "tokens must be a non-empty 1-D array"),
    (lambda: generate(np.array([99]), PARAMS, CFG, 2), "tokens must be ids in"),
    (lambda: greedy([]), "logits_row must be a non-empty 1-D array"),
    (lambda: greedy([[1.0, 2.0]]), "logits_row must be a non-empty 1-D array"),
    (lambda: words([0, 32]), "tokens must be a 1-D array of ids in \\[0, 32\\)"),
    (lambda: words([[0]]), "tokens must be a 1-D array"),
])
def test_bad_input(call, words_):
    with pytest.raises(ValueError, match=words_):
        call()

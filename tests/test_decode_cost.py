from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer.decode_cost import measured_ops, predicted_ops, speedup, step_scores, total_scores
from primer.transformer import Config, init_stack


def test_the_ratio_at_1000_steps_is_667():
    assert speedup(1000) == 667
    assert total_scores(1000, cached=False) == 333_833_500
    assert total_scores(1000, cached=True) == 500_500


@given(st.integers(1, 5000))
def test_the_ratio_is_2n_plus_1_over_3(n):
    assert speedup(n) == Fraction(2 * n + 1, 3)


@given(st.integers(0, 300), st.integers(1, 4), st.integers(1, 8))
def test_closed_forms_equal_the_sums_over_steps(n, layers, heads):
    assert total_scores(n, False, layers, heads) == layers * heads * sum(step_scores(k, False) for k in range(1, n + 1))
    assert total_scores(n, True, layers, heads) == layers * heads * sum(step_scores(k, True) for k in range(1, n + 1))


def test_one_step_costs_n_squared_without_a_cache_and_n_with_it():
    assert step_scores(7, cached=False) == 49 and step_scores(7, cached=True) == 7


def test_growth_is_cubic_without_a_cache_and_quadratic_with_it():
    assert total_scores(2000, False) / total_scores(1000, False) == pytest.approx(8, rel=1e-2)
    assert total_scores(2000, True) / total_scores(1000, True) == pytest.approx(4, rel=1e-2)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 3), st.sampled_from([1, 2, 4]), st.integers(1, 24), st.booleans())
def test_primer_counts_what_the_cost_model_predicts(layers, heads, n, cached):
    cfg = Config(n_layers=layers, n_heads=heads, d_model=8, max_len=24)
    params = init_stack(3, cfg)
    assert measured_ops(n, params, cfg, cached) == predicted_ops(n, cfg, cached)


@pytest.mark.parametrize("call, words", [
    (lambda: speedup(0), "n_steps must be an integer >= 1"),
    (lambda: total_scores(-1, True), "n_steps must be an integer >= 0"),
    (lambda: total_scores(3, True, n_layers=0), "n_layers must be an integer >= 1"),
    (lambda: total_scores(3, True, n_heads=1.5), "n_heads must be an integer >= 1"),
    (lambda: step_scores(0, True), "n must be an integer >= 1"),
    (lambda: predicted_ops(0, Config(), True), "n_steps must be an integer >= 1"),
    (lambda: measured_ops(65, init_stack(0, Config()), Config(), True), "n_steps must be <= max_len=64"),
])
def test_bad_input(call, words):
    with pytest.raises(ValueError, match=words):
        call()

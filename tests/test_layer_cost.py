import pytest
from hypothesis import given
from hypothesis import strategies as st

from primer.layer_cost import COST_D, COST_NS, attention_cost, cost_ratio, cost_row, rnn_cost, serial_steps

sizes = st.integers(1, 100_000)


@given(sizes, sizes)
def test_costs_are_the_leading_terms(n, d):
    assert attention_cost(n, d) == n * n * d
    assert rnn_cost(n, d) == n * d * d


@given(sizes, sizes)
def test_ratio_is_n_over_d(n, d):
    assert cost_ratio(n, d) == pytest.approx(n / d)
    assert (cost_ratio(n, d) < 1) == (n < d)


@given(sizes)
def test_serial_steps(n):
    assert serial_steps(n, "rnn") == n
    assert serial_steps(n, "self-attention") == 1


def test_ratios_at_d_512():
    assert COST_D == 512
    assert f"{cost_ratio(100, 512):.2f}" == "0.20"
    assert f"{cost_ratio(1000, 512):.2f}" == "1.95"
    assert round(cost_ratio(100, 512), 1) == 0.2


def test_the_table_crosses_over_at_n_equals_d():
    rows = [cost_row(n, COST_D) for n in COST_NS]
    crossing = [r for r in rows if r["attention"] == r["rnn"]]
    assert [r["n"] for r in crossing] == [COST_D]
    assert cost_row(100, 512) == {"n": 100, "d": 512, "attention": 5_120_000, "rnn": 26_214_400,
                                  "ratio": 100 / 512, "attention_steps": 1, "rnn_steps": 100}


@pytest.mark.parametrize("call, words", [
    (lambda: attention_cost(0, 512), "n must be"),
    (lambda: rnn_cost(10, 0), "d must be"),
    (lambda: cost_ratio(2.5, 512), "n must be"),
    (lambda: serial_steps(10, "lstm"), "kind must be one of"),
    (lambda: serial_steps(-1, "rnn"), "n must be"),
    (lambda: cost_row(True, 512), "n must be"),
])
def test_bad_input(call, words):
    with pytest.raises(ValueError, match=words):
        call()

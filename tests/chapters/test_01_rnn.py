"""Chapter 1 (RNN) over the built site: the numbers primer printed, the figures and their controls."""

import re

import pytest
from page_tables import cell_html
from site_reader import LANGS, table_rows

from primer.inputs import rnn
from primer.language import labels

PAGE = "01-rnn.md"


@pytest.mark.parametrize("lang", LANGS)
def test_positions_and_distance_are_on_the_page(read_page, lang):
    html = read_page(lang, PAGE)
    c = cell_html(html)
    # the per-character table: positions 1..23 as headers, with 虽 and 但 (and their positions) in bold
    assert "<strong>1</strong>" in c and "<strong>16</strong>" in c
    assert "<strong>虽</strong>" in c and "<strong>但</strong>" in c
    start = c.index("<strong>1</strong>")
    assert c[start : start + 23] == [str(i) if i not in (1, 16) else f"<strong>{i}</strong>" for i in range(1, 24)]
    # the distance table: 虽 1 但 16 and the bold distance 15; then the second sentence's 把 2 还 14, 12 apart
    i = c.index("<strong>15</strong>")
    assert c[i - 4 : i + 6] == [
        "虽",
        "1",
        "但",
        "16",
        "<strong>15</strong>",
        "把",
        "2",
        "还",
        "14",
        "<strong>12</strong>",
    ]


@pytest.mark.parametrize("lang", LANGS)
def test_gradient_figure_and_its_controls_are_on_the_page(read_page, lang):
    html = read_page(lang, PAGE)
    assert '"sliders"' in html and '"updatemenus"' in html
    for r in rnn.RADII:
        assert f"ρ = {r:g}" in html


@pytest.mark.parametrize("lang", LANGS)
def test_first_step_table_pins_vanishing_and_exploding(read_page, lang):
    c = cell_html(read_page(lang, PAGE))
    i = c.index("tanh RNN")
    assert c[i + 6] == ("线性 RNN" if lang == "zh" else "linear RNN")
    tanh, linear = c[i + 1 : i + 6], c[i + 7 : i + 12]
    assert tanh == ["1.6e-19", "1.8e-07", "9.1e-02", "2.7e-04", "3.5e-01"]
    assert linear == ["1.7e-19", "1.8e-07", "9.6e-02", "4.5e+03", "2.3e+09"]


@pytest.mark.parametrize("lang", LANGS)
def test_backprop_agrees_with_finite_differences_on_the_page(read_page, lang):
    c = cell_html(read_page(lang, PAGE))
    names = ["∂L/∂h₁", "∂L/∂W", "∂L/∂U", "∂L/∂b", "∂L/∂h₀", "∂L/∂x"]
    for name in names:
        assert c[c.index(name) + 2] == "&lt; 1e-06", name  # "< 1e-06": the digits below depend on the CPU


@pytest.mark.parametrize("lang", LANGS)
def test_gradient_inputs_named_in_the_prose_are_primers(read_page, lang):
    html = read_page(lang, PAGE)
    assert rnn.EXPERIMENT == dict(d=16, d_in=4, input_scale=0.01, seed=0) and max(rnn.STEPS) == 60
    text = re.sub(r"<[^>]+>", "", html)  # the formula d = 16 is MathML: <mi>d</mi><mo>=</mo><mn>16</mn>
    assert re.search(r"\bd\s*=\s*16\b", text) and "0.01" in text


@pytest.mark.parametrize("lang", LANGS)
def test_error_terms_agree_with_finite_differences_for_both_losses(read_page, lang):
    rows = [
        r
        for r in table_rows(read_page(lang, PAGE))
        if len(r) == 4 and r[1] in ("∂L/∂z = ŷ − y", "∂L/∂W（BPTT）", "∂L/∂W (BPTT)")
    ]
    assert len(rows) == 4 and len({r[0] for r in rows}) == 2  # two losses x (error term, dL/dW)
    for loss, what, largest, gap in rows:
        assert float(largest) > 0.1 and gap == "< 1e-06", (loss, what, gap)


@pytest.mark.parametrize("lang", LANGS)
def test_cross_entropy_error_term_is_prediction_minus_one_hot(read_page, lang):
    rows = {
        r[0]: r[1:]
        for r in table_rows(read_page(lang, PAGE))
        if len(r) == 5 and r[0].endswith(("ŷ₁", "y₁（独热）", "y₁ (one-hot)", "ŷ₁ − y₁"))
    }
    y_hat, label, err = ([float(v.replace("−", "-")) for v in vals] for vals in rows.values())  # the page prints −
    assert label == [0.0, 1.0, 0.0, 0.0]  # the seeded class id, one-hot
    assert abs(sum(y_hat) - 1) < 0.02 and abs(sum(err)) < 0.02
    assert [e < 0 for e in err] == [lab == 1 for lab in label]
    assert all(abs(e - (p - lab)) < 0.011 for e, p, lab in zip(err, y_hat, label))


@pytest.mark.parametrize("lang", LANGS)
def test_spectral_norm_row_exceeds_the_radius_row(read_page, lang):
    text = labels("rnn", lang)
    rows = [r for r in table_rows(read_page(lang, PAGE)) if r and r[0] == text["radius_row"]]
    norms = [r for r in table_rows(read_page(lang, PAGE)) if r and r[0] == text["norm_row"]]
    assert rows[0][1:] == ["0.50", "0.80", "1.00", "1.20", "1.50"]
    assert norms[0][2] == "1.24" and all(float(n) > float(r) for n, r in zip(norms[0][1:], rows[0][1:]))


@pytest.mark.parametrize("lang", LANGS)
def test_numpy_core_shows_the_gradient_vanishing(read_page, lang):
    text = re.sub(r"<[^>]+>", "", read_page(lang, PAGE))
    last, first = re.search(r"\|\|dL/dh_40\|\| = ([0-9.e+-]+), \|\|dL/dh_1\|\| = ([0-9.e+-]+)", text).groups()
    assert float(last) > 0.1 and float(first) < 1e-10


@pytest.mark.parametrize("lang", LANGS)
def test_lstm_history_and_sources_are_footnoted(read_page, lang):
    html = read_page(lang, PAGE)
    for ident in (
        "10.1109/72.279181",
        "10.1162/neco.1997.9.8.1735",
        "10.1162/089976600300015015",
        "1406.1078",
        "1412.3555",
    ):
        assert ident in html, ident

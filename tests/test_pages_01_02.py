"""Chapters 1 and 2 over the built site: the numbers primer printed, the figures, and the inputs the prose names."""

import re

import numpy as np
import pytest

from conftest import LANGS
from primer import seq2seq
from primer.pages import rnn

RNN, SEQ = "01-rnn.md", "02-seq2seq.md"


def cells(html):
    """Return every table cell's inner HTML, in page order."""
    return re.findall(r"<t[dh]>(.*?)</t[dh]>", html, re.S)


# ---- The far-apart pair: 把 at position 2, 还 at 14, twelve apart

@pytest.mark.parametrize("lang", LANGS)
def test_positions_and_distance_are_on_the_page(read_page, lang):
    html = read_page(lang, RNN)
    c = cells(html)
    # the per-character table: positions 1..15 as headers, with 把 and 还 (and their positions) in bold
    assert "<strong>2</strong>" in c and "<strong>14</strong>" in c
    assert "<strong>把</strong>" in c and "<strong>还</strong>" in c
    start = c.index("<strong>2</strong>") - 2
    assert c[start + 1:start + 16] == [str(i) if i not in (2, 14) else f"<strong>{i}</strong>" for i in range(1, 16)]
    # the distance table: 把 2 还 14 and the bold distance 12
    i = c.index("<strong>12</strong>")
    assert c[i - 4:i + 1] == ["把", "2", "还", "14", "<strong>12</strong>"]


# ---- The measured gradient norms, and the finite-difference check

@pytest.mark.parametrize("lang", LANGS)
def test_gradient_figure_and_its_controls_are_on_the_page(read_page, lang):
    html = read_page(lang, RNN)
    assert 'id="fig-gradient-curves"' in html
    assert '"sliders"' in html and '"updatemenus"' in html
    for r in rnn.RADII:
        assert f"ρ = {r:g}" in html


@pytest.mark.parametrize("lang", LANGS)
def test_first_step_table_pins_vanishing_and_exploding(read_page, lang):
    c = cells(read_page(lang, RNN))
    i = c.index("tanh RNN")
    assert c[i + 6] == ("线性 RNN" if lang == "zh" else "linear RNN")
    tanh, linear = c[i + 1:i + 6], c[i + 7:i + 12]
    assert tanh == ["1.6e-19", "1.8e-07", "9.1e-02", "2.7e-04", "3.5e-01"]
    assert linear == ["1.7e-19", "1.8e-07", "9.6e-02", "4.5e+03", "2.3e+09"]


@pytest.mark.parametrize("lang", LANGS)
def test_backprop_agrees_with_finite_differences_on_the_page(read_page, lang):
    c = cells(read_page(lang, RNN))
    names = ["∂L/∂h₁", "∂L/∂W", "∂L/∂U", "∂L/∂b", "∂L/∂h₀", "∂L/∂x"]
    for name in names:
        gap = float(c[c.index(name) + 2])
        assert gap < 1e-6, (name, gap)


@pytest.mark.parametrize("lang", LANGS)
def test_gradient_inputs_named_in_the_prose_are_primers(read_page, lang):
    html = read_page(lang, RNN)
    assert rnn.EXPERIMENT == dict(d=16, d_in=4, input_scale=0.01, seed=0) and max(rnn.STEPS) == 60
    assert "d = 16" in html and "0.01" in html


# ---- chapter 2: the made-up alignment

@pytest.mark.parametrize("lang", LANGS)
def test_alignment_figure_and_dropdown_are_on_the_page(read_page, lang):
    html = read_page(lang, SEQ)
    assert 'id="fig-align"' in html and '"updatemenus"' in html
    assert ("手工构造" if lang == "zh" else "made up by hand") in html


@pytest.mark.parametrize("lang", LANGS)
def test_alignment_table_follows_meaning(read_page, lang):
    c = cells(read_page(lang, SEQ))
    pairs = {"I": ("我", "94.9 %"), "bought": ("了", "66.9 %"), "apples": ("苹果", "94.9 %"),
             "yesterday": ("昨天", "94.9 %"), "&lt;eos&gt;": ("&lt;eos&gt;", "95.8 %")}
    for target, (source, share) in pairs.items():
        i = c.index(target)
        assert (c[i + 1], c[i + 2]) == (source, share), target


@pytest.mark.parametrize("lang", LANGS)
def test_alignment_inputs_named_in_the_prose_are_primers(read_page, lang):
    assert seq2seq.CARRY == 0.3
    assert "0.3" in read_page(lang, SEQ)


@pytest.mark.parametrize("lang", LANGS)
def test_standalone_bahdanau_snippet_prints_its_weights(read_page, lang):
    text = re.sub(r"<[^>]+>", "", read_page(lang, SEQ))
    printed = text.split("print(np.round(alpha, 3))", 1)[1]
    rows = re.findall(r"\[\[?([0-9. ]+)\]", printed)[:2]
    assert len(rows) == 2, "the snippet's printed weights are missing"
    assert np.allclose([sum(map(float, r.split())) for r in rows], 1.0, atol=2e-3)

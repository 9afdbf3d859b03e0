"""Chapter 6 (encoder-only) over the built site: the numbers primer printed, the figures and their controls."""

import pytest
from page_tables import unescaped
from site_reader import LANGS, table_rows

from primer import mlm

PAGE = "06-encoder.md"


@pytest.mark.parametrize("lang", LANGS)
def test_masking_rate_is_on_the_page(read_page, lang):
    html = read_page(lang, PAGE)
    rows, _ = mlm.mask_tokens(mlm.LONG_SENTENCE)
    assert len(rows) == 3 and len(mlm.LONG_SENTENCE) == 20  # 15 % of 20
    assert "<strong>15.0%</strong>" in html
    assert ("20 个 token，抽中 3 个" if lang == "zh" else "20 tokens; 3 were picked") in html
    picked = [r[0] for r in table_rows(html) if r and r[0].isdigit()]
    assert picked == ["4", "6", "19"]
    assert int(picked[-1]) == len(mlm.LONG_SENTENCE) - 1  # the prose: the table's last gap has nothing to its right
    assert "the cat sat on [MASK] mat [MASK] the dog slept by the fire and the bird sang outside the [MASK]" in html


@pytest.mark.parametrize("lang", LANGS)
def test_counting_model_guesses_are_on_the_page(read_page, lang):
    html = read_page(lang, PAGE)
    guesses = [r[1:] for r in table_rows(html) if len(r) == 4 and "(" in r[1]]
    assert guesses == [
        ["the (22.1%)", "on (5.7%)", "cat (4.4%)"],  # reads nothing
        ["ate (66.0%)", "sat (4.3%)", "on (3.5%)"],  # left only
        ["sat (80.9%)", "cat (2.8%)", "is (2.4%)"],  # right only
        ["sat (85.6%)", "ate (5.8%)", "slept (2.1%)"],
    ]  # both sides
    assert mlm.fill_mask(sides="both")[0][0] == "sat" and mlm.fill_mask(sides="left")[0][0] == "ate"


@pytest.mark.parametrize("lang", LANGS)
def test_full_mask_slider_runs_2_to_12_all_open(read_page, lang):
    html = unescaped(read_page(lang, PAGE))
    for n in (2, 7, 12):
        assert f"{n} × {n}" in html and f"{n * n} / {n * n}" in html

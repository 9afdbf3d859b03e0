"""Chapter 5 (the mask) over the built site: the numbers primer printed, the figures and their controls."""

import re

import markdown
import numpy as np
import pytest
from page_tables import table_with
from site_reader import LANGS, table_rows, tables

from primer import causal_mask, masked_softmax
from primer.conventions import CONVENTIONS
from primer.figures import mask as figures
from primer.inputs.mask import FOUR_SCORES, SCORES_3X3

PAGE = "05-mask.md"


def rendered(table_markdown):
    """Return the rows of a Markdown table as the page shows them."""
    return tables(markdown.markdown(table_markdown, extensions=["tables"]))[0]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("scores, digits", [(SCORES_3X3, 0), (FOUR_SCORES, 1)], ids=["3x3", "4x4"])
def test_weights_tables_are_primers_masked_softmax(read_page, lang, scores, digits):
    weights = masked_softmax(scores, causal_mask(len(scores)))
    assert np.allclose(weights.sum(axis=1), 1.0) and np.all(weights[~causal_mask(len(scores))] == 0)
    assert rendered(figures.weights_table(weights, digits=digits, lang=lang)) in tables(read_page(lang, PAGE))


@pytest.mark.parametrize("lang", LANGS)
def test_the_pages_table_is_the_measured_one(read_page, lang):
    expected = rendered(figures.conventions_table(CONVENTIONS, lang=lang))
    assert table_with(read_page(lang, PAGE), expected[0][0]) == expected


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_5_prints_its_leak_weights_and_padding_numbers(read_page, lang):
    html = read_page(lang, PAGE)
    assert "<strong>64.4%</strong>" in html and "<strong>0.0%</strong>" in html
    assert all(share in html for share in ("9.0%", "24.5%", "66.5%"))
    assert re.findall(r"<td>(\d+)%</td>", html)[:9] == ["100", "0", "0", "83", "17", "0", "9", "34", "56"]
    rows = [r for r in table_rows(html) if len(r) == 5 and r[2].isdigit()]
    # (padded query rows, rows the plain AND empties, real rows vs each sentence alone): only left padding under a
    # causal mask empties rows, and the real rows never move beyond rounding
    assert [r[2:] for r in rows] == [["5", "0", "< 1e-12"]] * 3 + [["5", "5", "< 1e-12"]]


def test_chapter_5_shows_primers_own_refusal_of_a_bad_window(read_page):
    from primer import window_mask
    from primer.language import labels

    with pytest.raises(ValueError) as refusal:
        window_mask(5, 0)
    assert labels("mask", "en")["refused_window"].format(window=0) == str(refusal.value)  # en shows primer's words
    for lang in LANGS:
        html = read_page(lang, PAGE)
        for escaped, char in (("\\u003e", ">"), ("\\u003c", "<"), ("\\u002f", "/"), ("\\u0027", "'"), ("\\u0026", "&")):
            html = html.replace(escaped, char)  # plotly JSON-escapes these inside <script>
        # the refusal in the page's language, in lines a phone shows: compared without the breaks and spaces
        html = re.sub(r"\\u([0-9a-f]{4})", lambda m: chr(int(m.group(1), 16)), html)  # plotly's JSON escapes CJK
        said = re.sub(r"<br>|\s", "", html)
        assert re.sub(r"\s", "", labels("mask", lang)["refused_window"].format(window=0)) in said


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_5_sets_the_masked_fill_bug_beside_the_add_0_bug(read_page, lang):
    from primer.inputs.mask import LEAK_KEY, LEAK_ROW

    mask = causal_mask(4)
    row = [
        masked_softmax(FOUR_SCORES, mask, **kw)[LEAK_ROW] for kw in ({}, {"fill": 0.0}, {"fill": 0.0, "replace": True})
    ]
    # the closed key's share: 0 under −∞, the largest under add-0, beside the other keys under masked_fill(0)
    assert row[0][LEAK_KEY] == 0 and row[1][LEAK_KEY] == row[1].max() and 0 < row[2][LEAK_KEY] < row[1][LEAK_KEY]
    expected = rendered(
        figures.fill_rule_table(*row[:2], mask[LEAK_ROW], leak_key=LEAK_KEY, replaced=row[2], lang=lang)
    )
    assert table_with(read_page(lang, PAGE), expected[0][0]) == expected

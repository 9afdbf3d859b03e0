"""Chapter 2 (seq2seq) over the built site: the numbers primer printed, the figures and their controls."""

import re

import numpy as np
import pytest
from page_tables import cell_html
from site_reader import LANGS

from primer import seq2seq

PAGE = "02-seq2seq.md"


@pytest.mark.parametrize("lang", LANGS)
def test_alignment_figure_and_dropdown_are_on_the_page(read_page, lang):
    html = read_page(lang, PAGE)
    assert '"updatemenus"' in html
    assert ("手工构造" if lang == "zh" else "made up by hand") in html


@pytest.mark.parametrize("lang", LANGS)
def test_alignment_table_follows_meaning(read_page, lang):
    c = cell_html(read_page(lang, PAGE))
    pairs = {
        "I": ("我", "94.9%"),
        "bought": ("买", "63.6%"),
        "apples": ("苹果", "94.9%"),
        "yesterday": ("昨天", "94.9%"),
        "&lt;eos&gt;": ("&lt;eos&gt;", "95.8%"),
    }
    for target, (source, share) in pairs.items():
        i = c.index(target)
        assert (c[i + 1], c[i + 2]) == (source, share), target


@pytest.mark.parametrize("lang", LANGS)
def test_alignment_inputs_named_in_the_prose_are_primers(read_page, lang):
    from primer.inputs.seq2seq import BOUGHT_PAST

    assert seq2seq.CARRY == 0.3 and BOUGHT_PAST == 0.6
    assert "0.3" in read_page(lang, PAGE) and "0.6" in read_page(lang, PAGE)


@pytest.mark.parametrize("lang", LANGS)
def test_timeline_puts_bahdanau_before_sutskever_and_cites_both(read_page, lang):
    html = read_page(lang, PAGE)
    assert html.index("arXiv:1406.1078") < html.index("arXiv:1409.0473") < html.index("arXiv:1409.3215")
    assert (
        "最早用于翻译的通用神经编码器-解码器之一" if lang == "zh" else "among the first general neural encoder"
    ) in html


@pytest.mark.parametrize("lang", LANGS)
def test_standalone_bahdanau_snippet_prints_its_weights(read_page, lang):
    text = re.sub(r"<[^>]+>", "", read_page(lang, PAGE))
    printed = text.split("print(np.round(alpha, 3))", 1)[1]
    rows = re.findall(r"\[\[?([0-9. ]+)\]", printed)[:2]
    assert len(rows) == 2, "the snippet's printed weights are missing"
    assert np.allclose([sum(map(float, r.split())) for r in rows], 1.0, atol=2e-3)

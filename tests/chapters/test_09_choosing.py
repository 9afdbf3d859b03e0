"""Chapter 9 (one block, three masks) over the built site: the numbers primer printed, the figures' controls."""

import re

import pytest
from site_reader import LANGS, table_rows

from primer.language import labels

PAGE = "09-choosing.md"


def row_of(html, first_cell):
    found = [r for r in table_rows(html) if r and r[0] == first_cell]
    assert found, f"no table row starts with {first_cell!r}"
    return found[0]


# Shape, computed count, published count, relative difference (None: no published total, see below).
PARAMS = {
    "BERT-base": ("12", "768", "109.48 M", "~110 M", "−0.47%"),
    "GPT-1": ("12", "768", "116.53 M", None, None),
    "T5-base": ("12 + 12", "768", "222.90 M", "~220 M", "+1.32%"),
}


def figure_json(html, div):
    """Return the JSON text of one figure's Plotly.newPlot call."""
    start = html.index(f'Plotly.newPlot(                        "{div}"')
    text = html[start : html.index("</script>", start)]
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), text)  # plotly escapes non-ASCII


KNOB_BUTTONS = {
    "zh": ["编码器（全开掩码）", "解码器（因果掩码）", "编码器-解码器（因果 + 交叉）"],
    "en": ["encoder (full mask)", "decoder (causal)", "encoder-decoder (causal + cross)"],
}


OUTPUT_CHOICES = {
    "zh": ["一个标签", "输入里的一段", "自由文本", "翻译"],
    "en": ["a label", "a span of the input", "free text", "a translation"],
}


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", PARAMS)
def test_params_row_is_on_the_page(read_page, lang, name):
    row = row_of(read_page(lang, PAGE), name)
    layers, width, computed, published, diff = PARAMS[name]
    if published is None:  # OpenAI published no total for GPT-1: the row says so and compares with nothing
        text = labels("choosing", lang)
        assert row[2:8] == [layers, width, computed, text["no_total"], text["absent"], text["absent"]]
    else:
        assert row[2:7] == [layers, width, computed, published, diff]


@pytest.mark.parametrize("lang", LANGS)
def test_parts_table_totals(read_page, lang):
    rows = table_rows(read_page(lang, PAGE))
    totals = [r for r in rows if r and r[0] in ("合计", "total")]
    assert totals and totals[0][1:] == ["109,482,240", "116,534,784", "222,903,552"]


@pytest.mark.parametrize("lang", LANGS)
def test_measured_reads_equal_the_masks(read_page, lang):
    rows = [r for r in table_rows(read_page(lang, PAGE)) if len(r) == 6 and r[-1] in ("✓", "✗")]
    assert [r[3:] for r in rows] == [["25", "25", "✓"], ["15", "15", "✓"], ["35", "35", "✓"]]


@pytest.mark.parametrize("lang", LANGS)
def test_rule_table(read_page, lang):
    html = read_page(lang, PAGE)
    kinds = {
        "zh": ["仅编码器", "仅编码器", "仅解码器", "编码器-解码器"],
        "en": ["encoder-only", "encoder-only", "decoder-only", "encoder-decoder"],
    }[lang]
    rows = [r for r in table_rows(html) if len(r) == 5 and r[-1] in ("BERT-base", "GPT-1", "T5-base")]
    assert [r[3] for r in rows] == kinds
    assert [r[4] for r in rows] == ["BERT-base", "BERT-base", "GPT-1", "T5-base"]


@pytest.mark.parametrize("lang", LANGS)
def test_knob_code_prints_three_machines(read_page, lang):
    assert "encoder: (4, 16)  decoder: (5, 32)  encoder-decoder: (5, 32)" in read_page(lang, PAGE)


@pytest.mark.parametrize("lang", LANGS)
def test_paper_sentence_is_quoted_with_its_source(read_page, lang):
    html = read_page(lang, PAGE)
    assert "This masking, combined with fact that the output embeddings are offset by one position" in html
    assert "Vaswani et al., 2017" in html and "§3.1" in html


@pytest.mark.parametrize("lang", LANGS)
def test_self_test_answers_are_folded(read_page, lang):
    html = read_page(lang, PAGE)
    questions = re.findall(r'<details class="question">\s*<summary>(Q\d)', html)
    assert questions[:5] == ["Q1", "Q2", "Q3", "Q4", "Q5"]


def test_zh_page_gives_its_own_translation_of_the_sentence(read_page):
    html = read_page("zh", PAGE)
    assert "中文大意" in html and "不让任何位置关注它之后的位置" in html


@pytest.mark.parametrize("lang", LANGS)
def test_controls_offer_every_state(read_page, lang):
    html = read_page(lang, PAGE)
    knob, picker, outputs = (figure_json(html, f"fig-{w}") for w in ("one-knob", "model-params", "output-machine"))
    assert '"type":"buttons"' in knob and '"type":"buttons"' in picker and '"type":"dropdown"' in outputs
    for label in KNOB_BUTTONS[lang]:
        assert f'"label":"{label}"' in knob
    for name in ("BERT-base", "GPT-1", "T5-base"):
        assert f'"label":"{name}"' in picker
    for label in OUTPUT_CHOICES[lang]:
        assert f'"label":"{label}"' in outputs

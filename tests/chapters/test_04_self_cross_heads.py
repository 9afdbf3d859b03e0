"""Chapter 4 (self, cross, multi-head, position) over the built site: the numbers primer printed, the controls."""

import json

import pytest
from page_tables import figure_script, rows_starting
from site_reader import LANGS, table_rows

from primer.language import labels

PAGE = "04-self-cross-heads.md"


def escaped(text):
    return json.dumps(text)[1:-1]


HEAD_BUTTONS = {
    "zh": ["头 1：什么甜", "头 2：谁买了什么", "头 3：买了多少", "一个宽头（三头拼成一头）"],
    "en": ["head 1: what is sweet", "head 2: who bought what", "head 3: how much", "one wide head"],
}


@pytest.mark.parametrize("lang", LANGS)
def test_config_of_the_original_transformer(read_page, lang):
    rows = table_rows(read_page(lang, PAGE))
    text = labels("self_cross_heads", lang)
    rows = rows[rows.index([text["field"], text["value"], text["source"]]) :]
    values = [r[1] for r in rows[1:]]
    assert values == ["6", "6", "512", "8", "2048", "64"]
    assert "d_k = d_model / h" in rows[-1][0]


@pytest.mark.parametrize("lang", LANGS)
def test_wide_head_table(read_page, lang):
    rows = table_rows(read_page(lang, PAGE))
    start = [i for i, r in enumerate(rows) if r[0] == {"zh": "查询“苹果”", "en": "query 苹果"}[lang]]
    assert len(start) == 1
    rows = rows[start[0] : start[0] + 5]
    body = rows[1:]
    assert [r[1:] for r in body] == [
        ["90.9%", "1.0%", "1.0%", "7.1%", "0.63"],
        ["1.0%", "90.9%", "1.0%", "7.1%", "0.63"],
        ["1.0%", "1.0%", "90.9%", "7.1%", "0.63"],
        ["28.4%", "28.4%", "28.4%", "14.8%", "0.00"],
    ]
    assert rows[0][1:4] == ["甜", "买", "斤"]


@pytest.mark.parametrize("lang", LANGS)
def test_head_selector_has_four_buttons(read_page, lang):
    script = figure_script(read_page(lang, PAGE), "fig-head-weights")
    assert '"updatemenus"' in script
    for label in HEAD_BUTTONS[lang]:
        assert f'"label":"{escaped(label)}"' in script


@pytest.mark.parametrize("lang", LANGS)
def test_word_order_table(read_page, lang):
    html = read_page(lang, PAGE)
    text = labels("self_cross_heads", lang)
    (no_pe,), (with_pe,) = rows_starting(html, text["no_pe"]), rows_starting(html, text["with_pe"])
    assert no_pe[1:] == ["< 1e-12", "< 1e-12"]  # equivariant: rounding only
    assert with_pe[1:] == ["3.793", "1.525"]


@pytest.mark.parametrize("lang", LANGS)
def test_cross_attention_table(read_page, lang):
    html = read_page(lang, PAGE)
    assert "weights.shape = (3, 5), out.shape = (3, 3)" in html
    assert rows_starting(html, "I") == [["I", "72%", "7%", "7%", "7%", "7%"]]
    assert rows_starting(html, "apples") == [["apples", "7%", "7%", "7%", "7%", "72%"]]


@pytest.mark.parametrize("lang", LANGS)
def test_word_order_and_cross_weights_have_buttons(read_page, lang):
    html = read_page(lang, PAGE)
    assert '"updatemenus"' in figure_script(html, "fig-word-order")
    assert '"updatemenus"' in figure_script(html, "fig-cross-weights")

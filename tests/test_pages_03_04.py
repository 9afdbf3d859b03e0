"""Chapters 3 "Attention in general" and 4 "Self, cross, multi-head, position": cost, variance, heads and positions on both pages."""

import json
import re

import pytest

from conftest import LANGS, table_rows

CH3, CH4 = "03-attention.md", "04-self-cross-heads.md"


def rows_starting(html, first):
    return [r for r in table_rows(html) if r and r[0] == first]


def figure_script(html, div):
    """Return the <script> that draws the figure with this div id."""
    found = re.search(r'Plotly\.newPlot\(\s*"' + re.escape(div) + r'".*?</script>', html, re.S)
    assert found, f"no Plotly.newPlot for {div}"
    return found.group(0)


def escaped(text):
    return json.dumps(text)[1:-1]


# ---- chapter 3

@pytest.mark.parametrize("lang", LANGS)
def test_cost_ratio_and_serial_steps(read_page, lang):
    html = read_page(lang, CH3)
    # columns: n, d, n²d, nd², ratio, RNN serial steps, self-attention serial steps
    assert rows_starting(html, "100") == [["100", "512", "5,120,000", "26,214,400", "0.20", "100", "1"]]
    assert rows_starting(html, "1,000") == [["1,000", "512", "512,000,000", "262,144,000", "1.95", "1,000", "1"]]
    assert rows_starting(html, "512")[0][4] == "1.00"


@pytest.mark.parametrize("lang", LANGS)
def test_cost_chart_has_a_slider_over_n(read_page, lang):
    script = figure_script(read_page(lang, CH3), "fig-cost-chart")
    assert '"sliders"' in script
    for label in ('"label":"100"', '"label":"1,000"', '"label":"512"'):
        assert label in script
    assert escaped("1.95") in script and "0.20" in script


VARIANCE = [["4", "4", "4.0", "1", "1.00"], ["16", "16", "16.0", "1", "1.00"], ["64", "64", "64.6", "1", "1.01"],
      ["256", "256", "261.7", "1", "1.02"], ["1024", "1024", "1036.2", "1", "1.01"]]


@pytest.mark.parametrize("lang", LANGS)
def test_variance_table(read_page, lang):
    rows = [r for r in table_rows(read_page(lang, CH3))
            if len(r) == 5 and r[0] in {"4", "16", "64", "256", "1024"} and not r[1].endswith("%")]
    assert rows == VARIANCE
    for d_k, theory, measured, one, scaled in rows:
        assert abs(float(measured) / int(theory) - 1) < 0.05      # Var(q·k) ≈ d_k
        assert abs(float(scaled) - 1) < 0.05                      # Var(q·k/√d_k) ≈ 1


@pytest.mark.parametrize("lang", LANGS)
def test_softmax_saturation_table(read_page, lang):
    rows = [r for r in table_rows(read_page(lang, CH3))
            if len(r) == 5 and r[0] in {"4", "16", "64", "256", "1024"} and r[1].endswith("%")]
    assert [r[0] for r in rows] == ["4", "16", "64", "256", "1024"]
    unscaled = [int(r[1].rstrip("%")) for r in rows]
    scaled = [int(r[2].rstrip("%")) for r in rows]
    assert unscaled == [43, 67, 85, 92, 96]
    assert scaled == [24, 24, 25, 25, 25]


@pytest.mark.parametrize("lang", LANGS)
def test_score_function_table(read_page, lang):
    html = read_page(lang, CH3)
    names = {"zh": ("加性（Bahdanau）", "点积（Luong）", "双线性", "缩放点积"),
             "en": ("additive (Bahdanau)", "dot (Luong)", "bilinear", "scaled dot")}[lang]
    dot = rows_starting(html, names[1])
    scaled = rows_starting(html, names[3])
    assert dot == [[names[1], "+2.50 → 8%", "+5.00 → 92%", "+0.00 → 1%", "-2.25 → 0%"]]
    assert scaled == [[names[3], "+1.25 → 21%", "+2.50 → 72%", "+0.00 → 6%", "-1.12 → 2%"]]
    assert rows_starting(html, names[0]) and rows_starting(html, names[2])


@pytest.mark.parametrize("lang", LANGS)
def test_gradient_check_table(read_page, lang):
    html = read_page(lang, CH3)
    none_label, causal_label, of = {"zh": ("不加掩码", "因果掩码", " / "), "en": ("no mask", "causal mask", " of ")}[lang]
    (no_mask,), (causal,) = rows_starting(html, none_label), rows_starting(html, causal_label)
    assert no_mask[2] == f"36{of}36" and causal[2] == f"21{of}36"
    assert no_mask[1] == causal[1] == "< 1e-06"                     # analytic = finite differences
    assert float(no_mask[3]) > 0.01                                  # every pair's block is nonzero


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_3_figures(read_page, lang):
    html = read_page(lang, CH3)
    for div in ("fig-variance-chart", "fig-grad-figure", "fig-cost-chart"):
        assert f'id="{div}"' in html
    assert '"updatemenus"' in figure_script(html, "fig-grad-figure")


# ---- chapter 4

@pytest.mark.parametrize("lang", LANGS)
def test_config_of_the_original_transformer(read_page, lang):
    rows = table_rows(read_page(lang, CH4))
    rows = rows[rows.index({"zh": ["字段", "取值", "来源"], "en": ["field", "value", "source"]}[lang]):]
    values = [r[1] for r in rows[1:]]
    assert values == ["6", "6", "512", "8", "2048", "64"]
    assert "d_k = d_model / h" in rows[-1][0]


@pytest.mark.parametrize("lang", LANGS)
def test_wide_head_table(read_page, lang):
    rows = table_rows(read_page(lang, CH4))
    start = [i for i, r in enumerate(rows) if r[0] == {"zh": "查询「苹果」", "en": "query 苹果"}[lang]]
    assert len(start) == 1
    rows = rows[start[0]:start[0] + 5]
    body = rows[1:]
    assert [r[1:] for r in body] == [
        ["90.9%", "1.0%", "1.0%", "7.1%", "0.63"],
        ["1.0%", "90.9%", "1.0%", "7.1%", "0.63"],
        ["1.0%", "1.0%", "90.9%", "7.1%", "0.63"],
        ["28.4%", "28.4%", "28.4%", "14.8%", "0.00"],
    ]
    assert rows[0][1:4] == ["甜", "买", "斤"]


HEAD_BUTTONS = {"zh": ["头 1：属性", "头 2：动作", "头 3：数量", "一个宽头（三头拼成一头）"],
                "en": ["head 1: attribute", "head 2: action", "head 3: quantity", "one wide head (three heads as one)"]}


@pytest.mark.parametrize("lang", LANGS)
def test_head_selector_has_four_buttons(read_page, lang):
    script = figure_script(read_page(lang, CH4), "fig-head-selector")
    assert '"updatemenus"' in script
    for label in HEAD_BUTTONS[lang]:
        assert f'"label":"{escaped(label)}"' in script


@pytest.mark.parametrize("lang", LANGS)
def test_word_order_table(read_page, lang):
    html = read_page(lang, CH4)
    labels = {"zh": ("不加位置编码", "加上位置编码"), "en": ("no positional encoding", "with positional encoding")}[lang]
    (no_pe,), (with_pe,) = rows_starting(html, labels[0]), rows_starting(html, labels[1])
    assert no_pe[1:] == ["< 1e-12", "< 1e-12"]                      # equivariant: rounding only
    assert with_pe[1:] == ["3.793", "1.525"]


@pytest.mark.parametrize("lang", LANGS)
def test_cross_attention_table(read_page, lang):
    html = read_page(lang, CH4)
    assert "weights.shape = (3, 5), out.shape = (3, 3)" in html
    assert rows_starting(html, "I") == [["I", "72%", "7%", "7%", "7%", "7%"]]
    assert rows_starting(html, "apples") == [["apples", "7%", "7%", "7%", "7%", "72%"]]


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_4_figures(read_page, lang):
    html = read_page(lang, CH4)
    for div in ("fig-cross-figure", "fig-head-selector", "fig-word-order", "fig-position-heatmap"):
        assert f'id="{div}"' in html
    assert '"updatemenus"' in figure_script(html, "fig-word-order")
    assert '"updatemenus"' in figure_script(html, "fig-cross-figure")

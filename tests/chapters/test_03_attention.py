"""Chapter 3 (attention in general) over the built site: the numbers primer printed, the figures and their controls."""

import json

import pytest
from page_tables import figure_script, rows_starting
from site_reader import LANGS, table_rows

from primer.figures.tables import integer

PAGE = "03-attention.md"


def escaped(text):
    return json.dumps(text)[1:-1]


VARIANCE = [
    ["4", "4", "4.0", "1", "1.00"],
    ["16", "16", "16.0", "1", "1.00"],
    ["64", "64", "64.6", "1", "1.01"],
    ["256", "256", "261.7", "1", "1.02"],
    ["1024", "1024", "1036.2", "1", "1.01"],
]


@pytest.mark.parametrize("lang", LANGS)
def test_cost_ratio_and_serial_steps(read_page, lang):
    html = read_page(lang, PAGE)
    # columns: n, d, n²d, nd², ratio, RNN serial steps, self-attention serial steps
    assert rows_starting(html, "100") == [
        ["100", "512", integer(5_120_000, lang), integer(26_214_400, lang), "0.20", "100", "1"]
    ]
    assert rows_starting(html, integer(1000, lang)) == [
        [
            integer(1000, lang),
            "512",
            integer(512_000_000, lang),
            integer(262_144_000, lang),
            "1.95",
            integer(1000, lang),
            "1",
        ]
    ]
    assert rows_starting(html, "512")[0][4] == "1.00"


@pytest.mark.parametrize("lang", LANGS)
def test_cost_chart_has_a_slider_over_n(read_page, lang):
    script = figure_script(read_page(lang, PAGE), "fig-cost-chart")
    assert '"sliders"' in script
    for label in ('"label":"100"', f'"label":"{integer(1000, lang)}"', '"label":"512"'):
        assert label in script
    assert escaped("1.95") in script and "0.20" in script


@pytest.mark.parametrize("lang", LANGS)
def test_variance_table(read_page, lang):
    rows = [
        r
        for r in table_rows(read_page(lang, PAGE))
        if len(r) == 5 and r[0] in {"4", "16", "64", "256", "1024"} and not r[1].endswith("%")
    ]
    assert rows == VARIANCE
    for _d_k, theory, measured, _one, scaled in rows:
        assert abs(float(measured) / int(theory) - 1) < 0.05  # Var(q·k) ≈ d_k
        assert abs(float(scaled) - 1) < 0.05  # Var(q·k/√d_k) ≈ 1


@pytest.mark.parametrize("lang", LANGS)
def test_softmax_saturation_table(read_page, lang):
    rows = [
        r
        for r in table_rows(read_page(lang, PAGE))
        if len(r) == 5 and r[0] in {"4", "16", "64", "256", "1024"} and r[1].endswith("%")
    ]
    assert [r[0] for r in rows] == ["4", "16", "64", "256", "1024"]
    unscaled = [int(r[1].rstrip("%")) for r in rows]
    scaled = [int(r[2].rstrip("%")) for r in rows]
    assert unscaled == [43, 67, 85, 92, 96]
    assert scaled == [24, 24, 25, 25, 25]


@pytest.mark.parametrize("lang", LANGS)
def test_score_function_table(read_page, lang):
    html = read_page(lang, PAGE)
    names = {
        "zh": ("加性（Bahdanau）", "点积（Luong 等人）", "双线性", "缩放点积"),
        "en": ("additive (Bahdanau)", "dot (Luong et al.)", "bilinear", "scaled dot"),
    }[lang]
    dot = rows_starting(html, names[1])
    scaled = rows_starting(html, names[3])
    assert dot == [[names[1], "+2.50 → 8%", "+5.00 → 92%", "+0.00 → 1%", "−2.25 → 0%"]]
    assert scaled == [[names[3], "+1.25 → 21%", "+2.50 → 72%", "+0.00 → 6%", "−1.12 → 2%"]]
    assert rows_starting(html, names[0]) and rows_starting(html, names[2])


@pytest.mark.parametrize("lang", LANGS)
def test_gradient_check_table(read_page, lang):
    html = read_page(lang, PAGE)
    none_label, causal_label, of = {"zh": ("全开掩码", "因果掩码", " / "), "en": ("full mask", "causal mask", " of ")}[
        lang
    ]
    (no_mask,), (causal,) = rows_starting(html, none_label), rows_starting(html, causal_label)
    assert no_mask[2] == f"36{of}36" and causal[2] == f"21{of}36"
    assert no_mask[1] == causal[1] == "< 1e-06"  # analytic = finite differences
    assert float(no_mask[3]) > 0.01  # every pair's block is nonzero


@pytest.mark.parametrize("lang", LANGS)
def test_gradient_reach_has_buttons(read_page, lang):
    html = read_page(lang, PAGE)
    assert '"updatemenus"' in figure_script(html, "fig-gradient-reach")

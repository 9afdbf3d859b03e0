"""Chapters 6 "Encoder-only", 7 "Decoder-only" and 8 "Encoder-decoder": tables and figures on both pages."""

import re

import pytest

from conftest import LANGS, table_rows
from primer import encoder_decoder, leak, mlm

CH6, CH7, CH8 = "06-encoder.md", "07-decoder.md", "08-encoder-decoder.md"


def unescaped(html):
    """Undo the \\uXXXX escapes plotly writes inside its <script> JSON."""
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), html)


@pytest.mark.parametrize("name, divs", [
    (CH6, ("fig-both-directions", "fig-full-mask-grid", "fig-mlm-walk")),
    (CH7, ("fig-same-row", "fig-visible-range", "fig-future-leak")),
    (CH8, ("fig-two-stacks", "fig-shared-memory", "fig-two-sublayers", "fig-cross-rows", "fig-two-layouts")),
])
@pytest.mark.parametrize("lang", LANGS)
def test_each_figure_has_its_div_and_a_plot(read_page, lang, name, divs):
    html = read_page(lang, name)
    for div in divs:
        assert f'id="{div}"' in html
        assert re.search(r'Plotly\.newPlot\(\s*"' + div + '"', html)


# ---- chapter 6: the masking rate and the counting model

@pytest.mark.parametrize("lang", LANGS)
def test_masking_rate_is_on_the_page(read_page, lang):
    html = read_page(lang, CH6)
    rows, _ = mlm.mask_tokens(mlm.LONG_SENTENCE)
    assert len(rows) == 3 and len(mlm.LONG_SENTENCE) == 20   # 15 % of 20
    assert "<strong>15.0%</strong>" in html
    assert ("20 个 token，抽中 3 个" if lang == "zh" else "20 tokens; 3 were picked") in html
    picked = [r[0] for r in table_rows(html) if r and r[0].isdigit()]
    assert picked == ["4", "6", "19"]
    assert "the cat sat on [MASK] mat [MASK] the dog slept by the fire and the bird sang outside the [MASK]" in html


@pytest.mark.parametrize("lang", LANGS)
def test_counting_model_guesses_are_on_the_page(read_page, lang):
    html = read_page(lang, CH6)
    guesses = [r[1:] for r in table_rows(html) if len(r) == 4 and "(" in r[1]]
    assert guesses == [["the (22.1%)", "on (5.7%)", "cat (4.4%)"],      # reads nothing
                       ["ate (66.0%)", "sat (4.3%)", "on (3.5%)"],       # left only
                       ["sat (80.9%)", "cat (2.8%)", "is (2.4%)"],       # right only
                       ["sat (85.6%)", "ate (5.8%)", "slept (2.1%)"]]    # both sides
    assert mlm.fill_mask(sides="both")[0][0] == "sat" and mlm.fill_mask(sides="left")[0][0] == "ate"


@pytest.mark.parametrize("lang", LANGS)
def test_full_mask_slider_runs_2_to_12_all_open(read_page, lang):
    html = unescaped(read_page(lang, CH6))
    for n in (2, 7, 12):
        assert f"{n}×{n}" in html and f"{n * n} / {n * n}" in html


# ---- chapter 7: the leak test

@pytest.mark.parametrize("lang", LANGS)
def test_leak_table_both_outcomes(read_page, lang):
    html = read_page(lang, CH7)
    _, _, result = leak.experiment()
    rows = {r[0]: r for r in table_rows(html) if r and r[0] in ("0", "1", "2", "3", "4", "5", "0–4")}
    assert [rows[str(i)][2] for i in range(5)] == ["0.0"] * 5                    # mask on: bit-identical
    assert [rows[str(i)][3] for i in range(5)] == ["0.8888", "2.7798", "1.0022", "0.7824", "0.9923"]
    assert rows["5"][2:] == ["6.6464", "6.7144"]
    assert rows["0–4"][2:] == ["0.0", "2.7798"]
    assert result.earlier_masked == 0.0 and f"{result.earlier_unmasked:.4f}" == "2.7798"
    assert "<strong>0.0</strong>" in html


@pytest.mark.parametrize("lang", LANGS)
def test_section_3_1_points_to_the_quote_in_chapter_9(read_page, lang):
    html = read_page(lang, CH7)
    assert "§3.1" in html and 'href="../09-choosing/"' in html


# ---- chapter 8: K/V projected once, the layouts

@pytest.mark.parametrize("lang", LANGS)
def test_projection_counts_are_on_the_page(read_page, lang):
    html = read_page(lang, CH8)
    rows = [r for r in table_rows(html) if len(r) == 3 and r[0].isdigit()]
    assert rows == [[str(t), "6", str(6 * t)] for t in range(1, 7)]
    assert encoder_decoder.projection_counts() == [(t, 6, 6 * t) for t in range(1, 7)]
    assert "(n_layers = 6)" in html
    assert "<code>le chat était assis sur le tapis</code> → <code>mat mat mat mat mat mat</code>" in html


@pytest.mark.parametrize("lang", LANGS)
def test_layout_table_is_on_the_page(read_page, lang):
    html = read_page(lang, CH8)
    rows = [r[1:] for r in table_rows(html) if len(r) == 4 and r[1] in ("13", "17")]
    yes, no = ("能", "不能") if lang == "zh" else ("yes", "no")
    assert rows == [["13", "112", yes], ["17", "153", no]]


def test_cross_mask_in_the_figure_is_all_open(read_page):
    run = encoder_decoder.teacher_forced()   # the figure counts the open cells of the mask it draws, row by row
    for lang in LANGS:
        html = unescaped(read_page(lang, CH8))
        for i, w in enumerate(run["tgt"]):
            title = f"解码器第 {i} 行（“{w}”）：7 / 7 个源端列开着" if lang == "zh" else f"decoder row {i} (“{w}”): 7 / 7 source columns open"
            assert title in html


@pytest.mark.parametrize("lang", LANGS)
def test_block_anatomy_table_is_on_the_page(read_page, lang):
    html = read_page(lang, "08-encoder-decoder.md")
    for count in ("1,120", "1,104", "<strong>2,224</strong>", "<strong>3,344</strong>"):
        assert count in html

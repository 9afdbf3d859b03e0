"""Chapter 9 (one block, three masks) over the built site: the numbers primer printed, the figures' controls."""

import re

import pytest
from site_reader import LANGS, table_rows

from primer.figures.tables import integer
from primer.language import labels

PAGE = "09-choosing.md"


def row_of(html, first_cell):
    found = [r for r in table_rows(html) if r and r[0] == first_cell]
    assert found, f"no table row starts with {first_cell!r}"
    return found[0]


# Shape, computed count in millions, published count in millions, relative difference (None: no published total, see
# below); the page writes the millions as its language does ('109.48 M', '~110 M'; '109.48M', '约 110M').
PARAMS = {
    "BERT-base": ("12", "768", "109.48", "110", "−0.47%"),
    "GPT-1": ("12", "768", "116.53", None, None),
    "T5-base": ("12 + 12", "768", "222.90", "220", "+1.32%"),
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
    text = labels("choosing", lang)
    computed = text["millions"].format(m=computed)
    if published is None:  # OpenAI published no total for GPT-1: the row says so and compares with nothing
        assert row[2:8] == [layers, width, computed, text["no_total"], text["absent"], text["absent"]]
    else:
        assert row[2:7] == [layers, width, computed, text["about"].format(m=published), diff]


@pytest.mark.parametrize("lang", LANGS)
def test_parts_table_totals(read_page, lang):
    rows = table_rows(read_page(lang, PAGE))
    totals = [r for r in rows if r and r[0] in ("合计", "total")]
    assert totals and totals[0][1:] == [
        integer(109_482_240, lang),
        integer(116_534_784, lang),
        integer(222_903_552, lang),
    ]


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


# ---- the three trained machines (chapters 6-8's cached runs) ----------------------------------------


def numbers(cell):  # "next-token loss: 0.88 (0.85–1.03)" -> [0.88, 0.85, 1.03]; percentages as fractions
    found = re.findall(r"(\d+(?:\.\d+)?)(%?)", cell.split("：")[-1].split(": ")[-1])
    return [float(x) / (100 if pc else 1) for x, pc in found]


def trained_rows(html, lang):
    text = labels("choosing", lang)
    rows = {r[0]: r for r in table_rows(html) if len(r) == 7 and r[0] in text["kind"].values()}
    return {machine: rows[text["kind"][machine]] for machine in text["kind"]}


@pytest.mark.parametrize("lang", LANGS)
def test_trained_table_shows_each_machine_its_masks_and_its_scores(read_page, lang):
    from primer.inputs import decoder, encoder, encoder_decoder

    text = labels("choosing", lang)
    rows = trained_rows(read_page(lang, PAGE), lang)
    for machine, row in rows.items():
        assert row[2:4] == [text["task"][machine], text["trained_masks"][machine]]
    assert [rows[m][1] for m in rows] == ["6", "7", "8"]
    # weights: one count; the encoder and the decoder are one shape, the encoder-decoder two stacks and cross-attention
    weights = {m: int(row[4]) for m, row in rows.items()}
    assert weights["encoder-decoder"] > 2 * weights["decoder"] > 0
    enc, enc_ref = numbers(rows["encoder"][5]), numbers(rows["encoder"][6])
    assert (
        0.4 < enc[0] <= enc_ref[0] + 0.02 and enc_ref[0] - enc[0] < 0.15
    )  # close to the best guess reading both sides
    dec, dec_ref = numbers(rows["decoder"][5]), numbers(rows["decoder"][6])
    assert (
        dec_ref[0] < dec[0] < dec_ref[0] + 0.4 and dec[2] < 1.5
    )  # near the grammar's own loss, far below chance (ln V)
    exact, words = numbers(rows["encoder-decoder"][5]), numbers(rows["encoder-decoder"][6])
    assert min(exact) > 0.6 and min(words) > 0.9  # "most held-out sentences exactly": on every seed
    for values in (enc, enc_ref, dec, dec_ref, exact, words):
        assert len(values) == 3 and values[1] <= values[0] <= values[2]  # median (min–max)
    n_seeds = (len(encoder.SEEDS), len(decoder.SEEDS), len(encoder_decoder.TRANSLATION_SEEDS))
    note = text["trained_note"].split("{n_enc}")[0]
    assert note in read_page(lang, PAGE)
    if lang == "en":
        assert f"{n_seeds[0]} for the encoder, {n_seeds[1]} for the decoder, {n_seeds[2]} for the encoder-decoder" in (
            read_page(lang, PAGE)
        )


def test_trained_table_is_the_same_in_both_languages(read_page):
    zh, en = (trained_rows(read_page(lang, PAGE), lang) for lang in LANGS)
    for machine in zh:
        assert zh[machine][1] == en[machine][1] and zh[machine][4] == en[machine][4]
        assert numbers(zh[machine][5]) == numbers(en[machine][5])
        assert numbers(zh[machine][6]) == numbers(en[machine][6])


@pytest.mark.parametrize("lang", LANGS)
def test_the_three_training_calls_on_the_page_are_read_from_the_code(read_page, lang):
    import html as html_lib

    from primer.experiments.trained_machines import differences, training_calls

    page = html_lib.unescape(re.sub(r"<[^>]+>", "", read_page(lang, PAGE)))
    calls = training_calls()
    for where, line in calls.values():
        assert f"({where}):" in page and line in page, line
    differ, same = differences([line for _, line in calls.values()])
    assert f"the same in all three:   {', '.join(same)}" in page
    assert "different:               self_mask, source_mask, cross_mask" in page  # the masks, and only they

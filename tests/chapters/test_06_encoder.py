"""Chapter 6 (encoder-only) over the built site: the numbers primer printed, the figures and their controls."""

import re

import pytest
from page_tables import unescaped
from site_reader import LANGS, table_rows, text_of

from primer import mlm
from primer.language import labels

PAGE = "06-encoder.md"


def bold_cells(html, first):  # -> [bool] for each cell after the first, of the row whose first cell is `first`
    for row in re.findall(r"<tr>(.*?)</tr>", html, re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        if cells and text_of(cells[0]) == first:
            return ["<strong>" in c for c in cells[1:]]
    raise AssertionError(f"no row {first!r}")


@pytest.mark.parametrize("lang", LANGS)
def test_masking_rate_is_on_the_page(read_page, lang):
    html = read_page(lang, PAGE)
    from primer.inputs.encoder import MASKING_EXAMPLE_SEED

    rows, _ = mlm.mask_tokens(mlm.LONG_SENTENCE, seed=MASKING_EXAMPLE_SEED)
    assert len(rows) == 3 and len(mlm.LONG_SENTENCE) == 20  # 15 % of 20
    assert sorted(r[2] for r in rows) == ["keep", "mask", "random"]  # the prose: the rule's three cases, one each
    assert "<strong>15.0%</strong>" in html
    assert ("20 个 token，抽中 3 个" if lang == "zh" else "20 tokens; 3 were picked") in html
    picked = [r[0] for r in table_rows(html) if r and r[0].isdigit()]
    assert picked == ["5", "9", "19"]
    assert int(picked[-1]) == len(mlm.LONG_SENTENCE) - 1  # the prose: the table's last gap has nothing to its right
    assert "the cat sat on the fire while the dog slept by the fire and the bird sang outside the [MASK]" in html


@pytest.mark.parametrize("lang", LANGS)
def test_the_trained_encoders_guesses_are_on_the_page(read_page, lang):
    from primer.experiments import trained_encoder
    from primer.inputs.encoder import EXPERIMENT

    html = read_page(lang, PAGE)
    text = labels("encoder_tables", lang)
    rows = {r[0]: r[1:] for r in table_rows(html) if len(r) == 5 and r[0] in text.values()}
    grammar_left = rows[text["grammar_left"]]
    assert all("(25.0%)" in c for c in grammar_left)  # four verbs, equally likely: the prose
    assert {c.split()[0] for c in grammar_left} == {"sat", "sang", "ate", "chased"}  # the tie is shown whole
    assert all(bold_cells(html, text["grammar_left"]))  # and every tied top word is bold, as the note says
    assert text_of(text["guess_note"]) in text_of(html)
    assert rows[text["grammar_both"]] == ["sat (100.0%)", "—", "—", "—"]
    for who in ("grammar_both", "encoder_left", "encoder_both"):  # one top guess each: it alone is bold
        assert bold_cells(html, text[who]) == [True, False, False, False], who
    encoder_left, encoder_both = rows[text["encoder_left"]], rows[text["encoder_both"]]
    assert not encoder_left[0].startswith("sat")  # the prose: under the causal mask it bets on the wrong verb
    assert float(encoder_left[0].split("(")[1].rstrip("%)*")) > 50  # and heavily (measured: chased, 61.6%)
    assert encoder_both[0].startswith("sat (") and float(encoder_both[0].split("(")[1].rstrip("%)*")) > 90  # 99.8%
    run = trained_encoder.trained_encoder(**EXPERIMENT)
    words = [".", *mlm.SENTENCE, "."]
    p = trained_encoder.fill(run, words, mlm.MASKED_POSITION + 1, "both")
    assert f"sat ({100 * p[run.vocab.index('sat')]:.1f}%)" == encoder_both[0]
    assert "fig-mlm-walk" in html


@pytest.mark.parametrize("lang", LANGS)
def test_the_accuracy_table_is_on_the_page(read_page, lang):
    from primer.experiments import trained_encoder
    from primer.figures import encoder as figures
    from primer.figures.decoder import spread
    from primer.figures.tables import pct
    from primer.inputs.encoder import EXPERIMENT, SEEDS

    html = read_page(lang, PAGE)
    text = labels("encoder_tables", lang)
    rows = {r[0]: r[1:] for r in table_rows(html) if len(r) == 3 and r[0] in text.values()}
    runs = trained_encoder.over_seeds(EXPERIMENT, SEEDS)
    for key, who, sides in (
        ("acc_encoder_both", "encoder", "both"),
        ("acc_encoder_left", "encoder", "left"),
        ("acc_grammar_left", "grammar", "left"),
        ("acc_grammar_both", "grammar", "both"),
    ):
        for column, where in enumerate(figures.ALL_THEN_DECIDED):
            values = [r.accuracy(who, sides, where(r)) for r in runs]
            assert rows[text[key]][column].strip("*") == spread(values, lambda x: pct(x, 0)), (key, column)
    # Each share is a count over a count (or, for the grammar, an exact mean of 1/k), so it is the same on every BLAS
    # as long as every top guess is (tests/test_trained_encoder.py: no top guess within 1e-6 of a tie); 87.5% is such
    # a share of counts and prints the same everywhere.
    # every seed prints the same on the words only the right side decides: one number, not "25% (25%–25%)"
    assert rows[text["acc_grammar_left"]][1] == "25%" and rows[text["acc_grammar_both"]][1] == "100%"
    assert not re.search(r"(\d+%) \(\1–\1\)", text_of(html))
    assert ("留出句子在训练文本里出现的次数：0" if lang == "zh" else "found in the training text: 0") in html


@pytest.mark.parametrize("lang", LANGS)
def test_full_mask_slider_runs_2_to_12_all_open(read_page, lang):
    html = unescaped(read_page(lang, PAGE))
    for n in (2, 7, 12):
        assert f"{n} × {n}" in html and f"{n * n} / {n * n}" in html

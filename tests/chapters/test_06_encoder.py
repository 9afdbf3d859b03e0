"""Chapter 6 (encoder-only) over the built site: the numbers primer printed, the figures and their controls."""

import numpy as np
import pytest
from page_tables import unescaped
from site_reader import LANGS, table_rows

from primer import mlm
from primer.language import labels

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
def test_the_trained_encoders_guesses_are_on_the_page(read_page, lang):
    from primer import trained_encoder
    from primer.pages.encoder import EXPERIMENT

    html = read_page(lang, PAGE)
    text = labels("encoder_tables", lang)
    rows = {r[0]: r[1:] for r in table_rows(html) if len(r) == 4 and r[0] in text.values()}
    grammar_left = rows[text["grammar_left"]]
    assert all("(25.0%)" in c for c in grammar_left)  # four verbs, equally likely: the prose
    assert rows[text["grammar_both"]] == ["sat (100.0%)", "—", "—"]
    encoder_left, encoder_both = rows[text["encoder_left"]], rows[text["encoder_both"]]
    assert not encoder_left[0].startswith("sat")  # the prose: under the causal mask it bets on the wrong verb
    assert float(encoder_left[0].split("(")[1].rstrip("%)*")) > 50  # and heavily
    assert encoder_both[0].startswith("sat (") and float(encoder_both[0].split("(")[1].rstrip("%)*")) > 90
    run = trained_encoder.trained_encoder(**EXPERIMENT)
    words = [".", *mlm.SENTENCE, "."]
    p = trained_encoder.fill(run, words, mlm.MASKED_POSITION + 1, "both")
    assert f"sat ({100 * p[run.vocab.index('sat')]:.1f}%)" == encoder_both[0]
    assert "fig-mlm-walk" in html


@pytest.mark.parametrize("lang", LANGS)
def test_the_accuracy_table_is_on_the_page(read_page, lang):
    from primer import trained_encoder
    from primer.pages.encoder import EXPERIMENT, SEEDS

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
        median = np.median([r.accuracy(who, sides) for r in runs])
        assert rows[text[key]][0].strip("*").startswith(f"{100 * median:.0f}%"), key
    assert ("留出句子在训练文本里出现的次数：0" if lang == "zh" else "found in the training text: 0") in html


@pytest.mark.parametrize("lang", LANGS)
def test_full_mask_slider_runs_2_to_12_all_open(read_page, lang):
    html = unescaped(read_page(lang, PAGE))
    for n in (2, 7, 12):
        assert f"{n} × {n}" in html and f"{n * n} / {n * n}" in html

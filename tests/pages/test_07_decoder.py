"""Chapter 7 (decoder-only) over the built site: the numbers primer printed, the figures and their controls."""

import pytest

from conftest import LANGS, table_rows
from page_tables import assert_figures
from primer import leak, mlm
from primer.config import Config
from primer.pages.decoder import CHANGED_POSITION, CHANGED_WORD
from primer.pages.encoder import SEED
from primer.vocab import CAT_VOCAB

PAGE = "07-decoder.md"


@pytest.mark.parametrize("lang", LANGS)
def test_leak_table_both_outcomes(read_page, lang):
    html = read_page(lang, PAGE)
    _, _, result = leak.experiment(mlm.SENTENCE, CHANGED_POSITION, CHANGED_WORD, CAT_VOCAB, Config(vocab_size=len(CAT_VOCAB)), SEED)
    rows = {r[0]: r for r in table_rows(html) if r and r[0] in ("0", "1", "2", "3", "4", "5", "0–4")}
    assert [rows[str(i)][2] for i in range(5)] == ["0.0"] * 5                    # mask on: bit-identical
    assert [rows[str(i)][3] for i in range(5)] == ["0.8888", "2.7798", "1.0022", "0.7824", "0.9923"]
    assert rows["5"][2:] == ["6.6464", "6.7144"]
    assert rows["0–4"][2:] == ["0.0", "2.7798"]
    assert result.earlier_masked < 1e-12 and abs(result.earlier_unmasked - 2.7798) < 1e-4   # rounding-level bounds
    assert "<strong>0.0</strong>" in html


@pytest.mark.parametrize("lang", LANGS)
def test_section_3_1_points_to_the_quote_in_chapter_9(read_page, lang):
    html = read_page(lang, PAGE)
    assert "§3.1" in html and 'href="../09-choosing/"' in html


@pytest.mark.parametrize("lang", LANGS)
def test_each_figure_has_its_div_and_a_plot(read_page, lang):
    html = read_page(lang, PAGE)
    assert_figures(html, ("fig-same-row", "fig-visible-range", "fig-future-leak"))

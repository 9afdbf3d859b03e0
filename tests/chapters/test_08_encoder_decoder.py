"""Chapter 8 (encoder-decoder) over the built site: the numbers primer printed, the figures and their controls."""

import pytest
from page_tables import unescaped
from site_reader import LANGS, table_rows

from primer import encoder_decoder
from primer.config import Config
from primer.pages import encoder_decoder as page
from primer.vocab import to_ids

PAGE = "08-encoder-decoder.md"
CFG = Config(**page.CONFIG)
MODEL = encoder_decoder.model(CFG, page.ENC_SEED, page.DEC_SEED)  # the page's two seeded stacks


@pytest.mark.parametrize("lang", LANGS)
def test_projection_counts_are_on_the_page(read_page, lang):
    html = read_page(lang, PAGE)
    rows = [r for r in table_rows(html) if len(r) == 3 and r[0].isdigit()]
    assert rows == [[str(t), "6", str(6 * t)] for t in range(1, 7)]
    counts = encoder_decoder.projection_counts(to_ids(page.SOURCE, page.VOCAB), *MODEL, CFG, page.STEPS)
    assert counts == [(t, 6, 6 * t) for t in range(1, 7)]
    assert "(n_layers = 6)" in html
    assert "<code>le chat était assis sur le tapis</code> → <code>mat mat mat mat mat mat</code>" in html


@pytest.mark.parametrize("lang", LANGS)
def test_layout_table_is_on_the_page(read_page, lang):
    html = read_page(lang, PAGE)
    rows = [r[1:] for r in table_rows(html) if len(r) == 4 and r[1] in ("13", "17")]
    yes, no = ("能", "不能") if lang == "zh" else ("yes", "no")
    assert rows == [["13", "112", yes], ["17", "153", no]]


def test_cross_mask_in_the_figure_is_all_open(read_page):
    run = encoder_decoder.teacher_forced(
        page.SOURCE, page.TARGET, page.VOCAB, *MODEL, CFG
    )  # the figure counts the open cells it draws
    for lang in LANGS:
        html = unescaped(read_page(lang, PAGE))
        for i, w in enumerate(run["tgt"]):
            title = (
                f"解码器第 {i} 行（“{w}”）：7 / 7 个源端列开着"
                if lang == "zh"
                else f"decoder row {i} (“{w}”): 7 / 7 source columns open"
            )
            assert title in html


@pytest.mark.parametrize("lang", LANGS)
def test_block_anatomy_table_is_on_the_page(read_page, lang):
    html = read_page(lang, "08-encoder-decoder.md")
    for count in ("1,120", "1,104", "<strong>2,224</strong>", "<strong>3,344</strong>"):
        assert count in html

"""Chapter 13 (decoder-only today) over the built site: the numbers primer printed, the figures and their controls."""

import html as htmllib

import pytest
from page_tables import cell_texts, has_row
from site_reader import LANGS

from primer.figures.tables import integer
from primer.language import labels


@pytest.mark.parametrize("lang", LANGS)
def test_ch13_tables_and_figure(read_page, lang):
    page = read_page(lang, "13-today.md")
    design = {"zh": ("仅解码器", "编码器-解码器"), "en": ("decoder-only", "encoder-decoder")}[lang]
    cs = cell_texts(page)
    assert has_row(page, [design[0], "1"]) and integer(2224, lang) in cs and integer(3344, lang) in cs
    assert [cs[i + 3] for i in range(len(cs) - 4) if cs[i] in design] == [
        integer(2224, lang),
        integer(2224, lang),
        integer(3344, lang),
    ]
    for k in range(4):
        label = labels("today", lang)["row_img"].format(k=k)
        assert has_row(page, [label, "0–3", "—"]), label
    for k, c in enumerate("a␣cat"):
        label = labels("today", lang)["row_txt"].format(k=k, c=c)
        assert has_row(page, [label, "0–3", "0" if k == 0 else f"0–{k}"]), label


@pytest.mark.parametrize("lang", LANGS)
def test_ch13_links_back(read_page, lang):
    page = read_page(lang, "13-today.md")
    assert 'href="../05-mask/"' in page
    assert 'href="../12-sampling-pipeline/"' in page
    assert 'href="../07-decoder/"' in page
    assert 'href="../10-kv-cache/"' in page


@pytest.mark.parametrize("lang", LANGS)
def test_ch13_numpy_core_summary_and_sources(read_page, lang):
    page = htmllib.unescape(read_page(lang, "13-today.md"))
    assert " [1 1 1 1 0 0 0 0 0]\n [1 1 1 1 1 0 0 0 0]" in page and "[1 1 1 1 1 1 1 1 1]]" in page  # patches, then text
    for heading in {"zh": ("十几行 numpy", "小结"), "en": ("A dozen lines of numpy", "Summary")}[lang]:
        assert f">{heading}<" in page, heading
    for key in ("alayrac2022", "radford2022", "openai2023", "zeng2022", "touvron2023", "bai2023", "zhang2025"):
        assert f'id="fn:{key}"' in page, key

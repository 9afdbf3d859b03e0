"""Every figure block of a page reaches its built page: the fig-<id> div and the Plotly.newPlot call that draws it.

The blocks are read from the pages' Markdown: an exec block with html="1" whose snippet prints to_html(...) is a
figure block, and its snippet names the div after the block's id.
"""

import re

import pytest
from site_reader import DOCS, LANGS, NEW_PLOT, page_names

BLOCK = re.compile(r'^```python exec="1"([^\n]*)\n--8<-- "([^"]+)"\n```', re.M)
DIV_ID = re.compile(r'div_id="([^"]+)"')


def figure_blocks(lang, md_name):  # -> [(block id, div id the snippet prints)]
    """Return the figure blocks of a page, in page order."""
    blocks = []
    for options, snippet in BLOCK.findall((DOCS / lang / md_name).read_text(encoding="utf-8")):
        code = (DOCS / "snippets" / snippet).read_text(encoding="utf-8")
        if 'html="1"' in options and "to_html(" in code:
            block_id = re.search(r'\bid="([^"]+)"', options).group(1)
            blocks.append((block_id, DIV_ID.findall(code)))
    return blocks


PAGES = [(lang, name) for lang in LANGS for name in page_names() if figure_blocks(lang, name)]


def test_the_pages_hold_figure_blocks():
    # a regex gone wrong would find no block and pass every page
    assert len(PAGES) >= 2 * 12
    assert sum(len(figure_blocks("en", name)) for _, name in PAGES) // 2 >= 30


@pytest.mark.parametrize("lang, md_name", PAGES)
def test_each_figure_snippet_names_its_div_after_its_block(lang, md_name):
    for block_id, divs in figure_blocks(lang, md_name):
        assert divs == [f"fig-{block_id}"], f"{md_name}: block {block_id!r} prints {divs}"


@pytest.mark.parametrize("lang, md_name", PAGES)
def test_each_figure_block_has_its_div_and_its_plot(read_page, lang, md_name):
    html = read_page(lang, md_name)
    divs = [f"fig-{block_id}" for block_id, _ in figure_blocks(lang, md_name)]
    for div in divs:
        assert f'id="{div}"' in html, div
    assert NEW_PLOT.findall(html) == divs  # each drawn once, in page order, and nothing else drawn

"""The notebooks in the built site: HTML pages of the code as written that say how to run it, twins for the switcher,
solutions closed, the .ipynb to download."""

import json
import re

import pytest
from site_reader import DOCS, LANGS

CHAPTERS = sorted(p.stem for p in (DOCS / "zh" / "notebooks").glob("*.ipynb"))
NOT_YET = {"zh": "还没写好", "en": "not yet"}


def notebook_page(site, lang, chapter):
    return (site if lang == "zh" else site / "en") / "notebooks" / chapter / "index.html"


def test_every_chapter_has_its_notebook():
    chapters = sorted(p.stem for p in (DOCS / "zh").glob("[0-9][0-9]-*.md"))
    assert CHAPTERS == chapters and len(chapters) >= 14


@pytest.mark.parametrize("chapter", CHAPTERS)
@pytest.mark.parametrize("lang", LANGS)
def test_a_notebook_page_is_html_of_the_code_that_says_how_to_run_it(site, lang, chapter):
    html = notebook_page(site, lang, chapter).read_text(encoding="utf-8")
    assert html.lstrip().lower().startswith("<!doctype html>"), "published as raw JSON, not as a page"
    assert f'<html lang="{lang}"' in html
    assert "jp-CodeCell" in html and "raise NotImplementedError" in html
    assert "<code>jupyter lab</code>" in html.split("<article", 1)[1]
    assert "data:image/png" not in html and NOT_YET[lang] not in html  # shown as written, not run at build


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_switcher_on_a_notebook_page_leads_to_its_twin(site, chapter):
    zh = notebook_page(site, "zh", chapter).read_text(encoding="utf-8")
    en = notebook_page(site, "en", chapter).read_text(encoding="utf-8")
    assert f'<a href="../../en/notebooks/{chapter}/" hreflang="en"' in zh
    assert f'<a href="../../../notebooks/{chapter}/" hreflang="zh"' in en


@pytest.mark.parametrize("chapter", CHAPTERS)
@pytest.mark.parametrize("lang", LANGS)
def test_solutions_sit_in_a_closed_admonition(site, lang, chapter):
    html = notebook_page(site, lang, chapter).read_text(encoding="utf-8")
    source = json.loads((DOCS / lang / "notebooks" / f"{chapter}.ipynb").read_text(encoding="utf-8"))
    n_solutions = sum("exercise-solution" in c["metadata"].get("tags", []) for c in source["cells"])
    assert (
        2
        <= n_solutions
        == len(re.findall(r'<details class="note"><summary>[^<]+</summary>\s*<div[^>]*celltag_exercise-solution', html))
    )
    assert '<details class="note" open' not in html


@pytest.mark.parametrize("chapter", CHAPTERS)
@pytest.mark.parametrize("lang", LANGS)
def test_the_ipynb_is_downloadable_from_the_chapter_and_the_notebook_page(site, lang, chapter):
    root = site if lang == "zh" else site / "en"
    ipynb = root / "notebooks" / f"{chapter}.ipynb"
    assert json.loads(ipynb.read_text(encoding="utf-8")) == json.loads(
        (DOCS / lang / "notebooks" / f"{chapter}.ipynb").read_text(encoding="utf-8")
    )
    chapter_html = (root / chapter / "index.html").read_text(encoding="utf-8")
    assert f'<a href="../notebooks/{chapter}.ipynb" download' in chapter_html
    assert f'href="../notebooks/{chapter}/"' in chapter_html  # and the rendered page
    assert f'<a href="../{chapter}.ipynb" download>' in notebook_page(site, lang, chapter).read_text(encoding="utf-8")


@pytest.mark.parametrize("lang", LANGS)
def test_the_notebooks_are_in_the_nav(site, lang):
    html = ((site if lang == "zh" else site / "en") / "index.html").read_text(encoding="utf-8")
    assert ("笔记本" if lang == "zh" else "Notebooks") in html
    for chapter in CHAPTERS:
        assert f'href="notebooks/{chapter}/"' in html


@pytest.mark.parametrize("lang", LANGS)
def test_notebook_pages_share_one_stylesheet_instead_of_inlining_it(site, lang):
    """mkdocs-jupyter inlines ~600 KB of JupyterLab CSS per page; hooks/notebooks.py moves it to one file all link."""
    links = set()
    for chapter in CHAPTERS:
        page = notebook_page(site, lang, chapter)
        html = page.read_text(encoding="utf-8")
        assert "<style" not in html.split("<article", 1)[1], f"{chapter}: styles still inlined in the article"
        found = re.findall(r'<link rel="stylesheet" href="([^"]*assets/stylesheets/jupyter\.[0-9a-f]{10}\.css)">', html)
        assert len(found) == 1, chapter
        target = (page.parent / found[0]).resolve()
        assert (
            target.is_file()
            and target.stat().st_size > 100_000
            and ".jp-OutputArea" in target.read_text(encoding="utf-8")
        )
        links.add(target)
        assert len(html) < 250_000, f"{chapter}: {len(html)} bytes"
    assert len(links) == 1, "every notebook page links the same stylesheet"


def test_the_search_index_leaves_notebook_pages_out_but_keeps_the_chapters(site):
    """Their code is on the chapter pages; indexing their JupyterLab markup was most of the index's cost."""
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))  # one index, both languages
    locations = {doc["location"].split("#")[0] for doc in index["docs"]}
    assert not any("notebooks/" in loc for loc in locations)
    assert {f"{prefix}{chapter}/" for chapter in CHAPTERS for prefix in ("", "en/")} <= locations


@pytest.mark.parametrize("lang", LANGS)
def test_a_notebook_page_hides_its_cells_tags(site, lang):
    """mkdocs-jupyter shows cell tags as badges (.celltoolbar) and has no option against it: primer.css hides them."""
    html = notebook_page(site, lang, CHAPTERS[0]).read_text(encoding="utf-8")
    assert 'class="celltoolbar"' in html  # the badges are there, tagged cells exist: the rule below is not idle
    css = (site / "assets" / "stylesheets" / "primer.css").read_text(encoding="utf-8")
    assert re.search(r"\.md-typeset \.jupyter-wrapper \.celltoolbar \{ display: none; \}", css)
    assert 'class="md-content__inner md-typeset"' in html.split('class="jupyter-wrapper"')[0]  # inside .md-typeset

"""Checks over the strictly built site's HTML: zh/en parity of pages and figures, plotly loaded once, the language
switcher, search segmentation, and chapter 5's computed numbers. (Offline, links under a sub-path and everything a
browser shows: tests/test_browser.py and tests/test_hosting.py.)"""

import json
import math
import re

import pytest
from site_reader import DOCS, LANGS, page_figures, page_names


def test_both_languages_have_the_same_pages_and_notebooks():
    def pages(lang):
        return sorted(
            p.relative_to(DOCS / lang).as_posix() for p in (DOCS / lang).rglob("*") if p.suffix in (".md", ".ipynb")
        )

    assert pages("zh") == pages("en") and len(pages("zh")) > 20


def figure_differences(zh, en, path, seen):
    """List where two figures differ in anything but the words of a string: a number, a flag, a key, a length.
    Counts the numbers and flags compared in seen[0]."""
    if isinstance(zh, str) and isinstance(en, str):
        return []
    if type(zh) is not type(en):
        return [f"{path}: {type(zh).__name__} in zh, {type(en).__name__} in en"]
    if isinstance(zh, dict):
        if zh.keys() != en.keys():
            return [f"{path}: keys only one language has: {sorted(zh.keys() ^ en.keys())}"]
        return [d for k in zh for d in figure_differences(zh[k], en[k], f"{path}.{k}", seen)]
    if isinstance(zh, list):
        if len(zh) != len(en):
            return [f"{path}: {len(zh)} items in zh, {len(en)} in en"]
        return [d for i, (a, b) in enumerate(zip(zh, en)) for d in figure_differences(a, b, f"{path}[{i}]", seen)]
    seen[0] += 1
    # Both sides come from the same code on the same machine; floats still get a bound, not bit equality.
    same = math.isclose(zh, en, rel_tol=1e-12, abs_tol=1e-15) if isinstance(zh, float) else zh == en
    return [] if same else [f"{path}: {zh!r} in zh, {en!r} in en"]


def test_both_languages_draw_the_same_figures_and_only_their_words_differ(read_page):
    """Same figure ids, traces, numbers and controls on both sides of every page: why the browser operates controls
    and the dark palette in zh only."""
    problems, seen, figures = [], [0], 0
    for name in page_names():
        zh, en = page_figures(read_page("zh", name)), page_figures(read_page("en", name))
        if list(zh) != list(en):
            problems.append(f"{name}: figures {list(zh)} in zh, {list(en)} in en")
            continue
        figures += len(zh)
        for div in zh:
            problems += [f"{name} {p}" for p in figure_differences(zh[div], en[div], div, seen)][:5]
    assert not problems, "\n".join(problems)
    assert figures > 20 and seen[0] > 10_000  # real figures were compared, not empty readings


def test_the_figure_comparison_catches_a_number_a_trace_or_a_control_step_that_differs():
    zh = [
        [{"type": "heatmap", "z": [[0.5, 1.0]], "name": "查询"}],
        {"sliders": [{"steps": [{"args": [{"visible": [True]}]}]}]},
    ]
    en = json.loads(json.dumps(zh).replace("查询", "query"))
    assert figure_differences(zh, en, "f", [0]) == []
    for spoil in (
        lambda f: f[0][0]["z"][0].append(0.9),
        lambda f: f[0][0]["z"][0].__setitem__(1, 0.9),
        lambda f: f[0].append({"type": "bar"}),
        lambda f: f[1]["sliders"][0]["steps"][0]["args"][0].update(visible=[0]),
    ):
        other = json.loads(json.dumps(en))
        spoil(other)
        assert figure_differences(zh, other, "f", [0]), other


@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("lang", LANGS)
def test_page_loads_plotly_once_publishes_no_traceback_and_links_its_twin(read_page, lang, name):
    html = read_page(lang, name)
    head = html.split("</head>", 1)[0]
    assert "Traceback (most recent call last)" not in html
    assert html.count("plotly-primer.min.js") == ("Plotly.newPlot" in html)  # in <head>, only where a figure is
    assert "Plotly.newPlot" not in html or re.search(
        r'<script src="[^"]*assets/vendor/plotly/plotly-primer\.min\.js">', head
    )
    assert len(html) < 2_000_000, "plotly.js looks inlined"
    # Material would fetch a sitemap for each hreflang alternate: the language switcher links the twin instead.
    assert re.findall(r"<link\b[^>]*\bhreflang=", head) == [] and 'rel="icon"' in head and 'name="viewport"' in head
    stem = "" if name == "index.md" else name[:-3] + "/"
    up = "../" * stem.count("/")
    twin = f'<a href="{up}en/{stem}" hreflang="en"' if lang == "zh" else f'<a href="../{up}{stem}" hreflang="zh"'
    assert twin in html and f'<a href="./" hreflang="{lang}"' in html


def test_vendored_assets_are_in_the_site(site):
    assert (site / "assets/vendor/plotly/plotly-primer.min.js").stat().st_size > 1_000_000
    assert not (site / "assets/vendor/plotly.min.js").exists()  # the full bundle is never shipped
    assert not (site / "assets/vendor/katex").exists()  # math is MathML made at build


def test_languages_live_at_root_and_en(site):
    assert '<html lang="zh"' in (site / "index.html").read_text(encoding="utf-8")
    assert '<html lang="en"' in (site / "en/index.html").read_text(encoding="utf-8")


def test_chinese_headings_get_readable_anchors_and_the_search_index_is_segmented(site, read_page):
    html = read_page("zh", "05-mask.md")
    assert re.search(r'id="[^"]*下三角[^"]*"', html) and not re.search(r'<h2 id="_\d+"', html)
    index = (site / "search/search_index.json").read_text(encoding="utf-8")
    assert "\\u200b" in index or "\u200b" in index  # jieba's word breaks


def test_the_search_index_holds_prose_and_inline_code_but_no_code_block(site, read_page):
    """hooks/search_prose.py hands Material's search a copy of each page without code blocks; the page shows them."""
    docs = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))["docs"]
    text = " ".join(d["text"] for d in docs)
    assert "<pre>" not in text and "import numpy as np" not in text
    assert "<code>is_causal</code>" in text  # inline code stays searchable
    html = read_page("en", "05-mask.md")
    assert html.count('<div class="highlight"><pre>') >= 10

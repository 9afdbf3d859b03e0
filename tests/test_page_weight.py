"""Byte budgets of the built site: what a reader downloads does not drift up unnoticed (bytes, never times)."""

import gzip
import re

from site_reader import LANGS, html_path, page_names

# Pages are budgeted as they travel: gzipped. The heaviest was 35.2 KB (zh/04) when the budget moved from raw bytes
# to gzipped ones; a chapter after the first is nearly all a second visit transfers. 40 KB became 42 KB when each
# figure got its no-JavaScript notice and a small heatmap its table (issue 45): zh/09 went from 40.0 to 41.0 KB. 50 KB
# when chapter 14's bug tables began to print the kit's own sentences and it gained "check your own layer" (issue 46):
# zh/14 measured 48.4 KB. A first visit stays within its own budget below.
PAGE_HTML_GZIP_BYTES = 50_000


def test_every_page_html_within_budget(site):
    sizes = {
        f"{lang}/{name}": len(gzip.compress(html_path(site, lang, name).read_bytes(), 6, mtime=0))
        for lang in LANGS
        for name in page_names()
    }
    heaviest = max(sizes, key=sizes.get)
    assert sizes[heaviest] <= PAGE_HTML_GZIP_BYTES, f"{heaviest}: {sizes[heaviest]:,} bytes gzipped"


def test_no_page_loads_math_javascript_css_or_fonts(site):
    """Math arrives as MathML in the HTML: no page, notebooks included, names a KaTeX asset,
    every formula is a <math> element, and the site ships no font file."""
    pages = sorted(site.rglob("*.html"))
    texts = {p.relative_to(site).as_posix(): p.read_text(encoding="utf-8") for p in pages}
    assert [p for p, t in texts.items() if re.search(r'(?:src|href)="(?!data:)[^"]*katex', t, re.I)] == []
    formulas = [m for t in texts.values() for m in re.findall(r'class="arithmatex">(.{0,6})', t)]
    assert len(formulas) > 500 and {m[:5] for m in formulas} == {"<math"}
    assert [f.name for f in site.rglob("*") if f.suffix in (".woff", ".woff2", ".ttf", ".otf")] == []


def test_every_page_holds_the_search_index_back_until_a_search(site):
    """search-on-demand.js runs before Material's bundle, whose start would otherwise fetch the index and the worker."""
    for lang in LANGS:
        for name in page_names():
            html = html_path(site, lang, name).read_text(encoding="utf-8")
            ours = html.find("assets/javascripts/search-on-demand.js")
            bundle = re.search(r"assets/javascripts/bundle\.[0-9a-f]+\.min\.js", html)
            assert 0 <= ours < bundle.start(), f"{lang}/{name}: search-on-demand.js missing or after the bundle"

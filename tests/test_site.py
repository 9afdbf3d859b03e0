"""Checks over the strictly built site: parity (pages and figures), computed numbers, plotly loading, offline, relative links."""

import json
import math
import re
from html.parser import HTMLParser

import pytest

from conftest import DOCS, LANGS, page_figures, page_names

# What the browser fetches from another host. A canonical link only names the deployed address (the session's
# build is a deploy build, tests/conftest.py); no browser fetches it.
EXTERNAL = re.compile(r'<(?:script|img|iframe)\b[^>]*\b(?:src|href)="(?:https?:)?//'
                      r'|<link\b(?![^>]*\brel="canonical")[^>]*\bhref="(?:https?:)?//', re.I)


def test_both_languages_have_the_same_pages():
    zh = sorted(p.relative_to(DOCS / "zh").as_posix() for p in (DOCS / "zh").rglob("*.md"))
    en = sorted(p.relative_to(DOCS / "en").as_posix() for p in (DOCS / "en").rglob("*.md"))
    assert zh == en


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
    """Same figure ids, traces, numbers and controls on both sides of every page. This is why the browser test
    operates controls in one language only: the other language has the same controls with other labels."""
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
    assert figures > 20 and seen[0] > 10_000   # real figures were compared, not empty readings


def test_the_figure_comparison_catches_a_number_a_trace_or_a_control_step_that_differs():
    fig = [[{"type": "heatmap", "z": [[0.5, 1.0]], "name": "查询"}],
           {"sliders": [{"steps": [{"args": [{"visible": [True]}], "label": "第 1 步"}]}]}, {}]
    same = [[{"type": "heatmap", "z": [[0.5, 1.0]], "name": "query"}],
            {"sliders": [{"steps": [{"args": [{"visible": [True]}], "label": "step 1"}]}]}, {}]
    assert figure_differences(fig, same, "f", [0]) == []
    number = json.loads(json.dumps(same))
    number[0][0]["z"][0][1] = 0.9
    trace = json.loads(json.dumps(same))
    trace[0].append({"type": "bar"})
    step = json.loads(json.dumps(same))
    step[1]["sliders"][0]["steps"][0]["args"][0]["visible"] = [False]
    for other in (number, trace, step):
        assert figure_differences(fig, other, "f", [0]), other
    assert page_figures('Plotly.newPlot(  "fig-a",  [{"x": [1]}],  {"title": "t"},  {"responsive": true}  )') == {
        "fig-a": [[{"x": [1]}], {"title": "t"}, {"responsive": True}]}


class _StyleReading(HTMLParser):
    """Collect a page's stylesheets (their site paths), its <style> texts, and the kinds of element in its article:
    (tag, class attribute, style attribute)."""

    def __init__(self):
        super().__init__()
        self.sheets, self.styles, self.kinds, self.in_article, self.in_style = [], [], set(), False, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "link" and a.get("rel") == "stylesheet":
            self.sheets.append(re.sub(r"^(\.\./)+", "", a.get("href") or ""))
        self.in_style = tag == "style"
        self.in_article = self.in_article or tag == "article"
        if self.in_article:
            self.kinds.add((tag, a.get("class") or "", a.get("style") or ""))

    def handle_endtag(self, tag):
        self.in_article = self.in_article and tag != "article"
        self.in_style = False

    def handle_data(self, data):
        if self.in_style:
            self.styles.append(data)


def style_reading(page_html):
    """Read a page's stylesheets, <style> texts and kinds of element in its article."""
    reading = _StyleReading()
    reading.feed(page_html)
    return reading


def style_differences(zh_pages, en_pages):
    """List what would let an en page look different from its zh twin to axe's colour rules: other
    stylesheets or <style> texts, or a kind of element (tag, classes, inline style) that no zh article has."""
    zh_kinds = set().union(*(p.kinds for p in zh_pages.values()))
    problems = []
    for name, en in en_pages.items():
        zh = zh_pages[name]
        if (zh.sheets, zh.styles) != (en.sheets, en.styles):
            problems.append(f"{name}: stylesheets {zh.sheets} in zh, {en.sheets} in en, or other <style> texts")
        problems += [f"{name}: en has <{tag} class={cls!r} style={style!r}>, which no zh article has"
                     for tag, cls, style in sorted(en.kinds - zh_kinds)]
    return problems


def test_the_style_rules_checked_in_zh_see_every_kind_of_element_en_shows(read_page):
    """The browser test runs axe's colour rules (tests/test_browser.py STYLE_RULES) in zh only: what they
    judge comes from the stylesheets, the same on both sides, applied to kinds of element that zh shows too."""
    zh = {name: style_reading(read_page("zh", name)) for name in page_names()}
    en = {name: style_reading(read_page("en", name)) for name in page_names()}
    assert style_differences(zh, en) == []
    assert all(p.sheets for p in zh.values()) and len(set().union(*(p.kinds for p in zh.values()))) > 50


def test_the_style_comparison_catches_another_stylesheet_or_a_new_kind_of_element():
    page = '<link rel="stylesheet" href="../assets/site.css"><article><p>text <a href="#x">link</a></p></article>'
    zh = {"a.md": style_reading(page)}
    assert style_differences(zh, {"a.md": style_reading(page.replace("../", "../../"))}) == []   # en is a level deeper
    assert style_differences(zh, {"a.md": style_reading(page.replace("site.css", "other.css"))})
    assert style_differences(zh, {"a.md": style_reading(page.replace("<p>", "<p><mark>x</mark>"))})
    assert style_differences(zh, {"a.md": style_reading(page.replace('<a href', '<a style="color: #eee" href'))})


@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("lang", LANGS)
def test_no_traceback_is_published(read_page, lang, name):
    html = read_page(lang, name)
    assert "Traceback (most recent call last)" not in html


@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("lang", LANGS)
def test_plotly_js_is_loaded_once_in_head_on_figure_pages_and_never_inlined(read_page, lang, name):
    html = read_page(lang, name)
    head = html.split("</head>", 1)[0]
    has_figure = "Plotly.newPlot" in html
    assert html.count("plotly-primer.min.js") == (1 if has_figure else 0)
    if has_figure:
        assert re.search(r'<script src="[^"]*assets/vendor/plotly/plotly-primer\.min\.js"></script>', head)
    assert len(html) < 2_000_000, "plotly.js looks inlined"


@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("lang", LANGS)
def test_no_script_or_style_from_another_host(read_page, lang, name):
    assert EXTERNAL.findall(read_page(lang, name)) == []


@pytest.mark.parametrize("lang", LANGS)
def test_the_repository_link_asks_github_for_nothing(read_page, lang):
    """Material's repository link fetches stars and forks from api.github.com when it carries data-md-component=
    "source"; overrides/partials/source.html drops it. The session's build has a repo_url, as deployed."""
    html = read_page(lang, "05-mask.md")
    assert 'class="md-source"' in html and 'data-md-component="source"' not in html


def test_vendored_assets_are_in_the_site(site):
    assert (site / "assets/vendor/plotly/plotly-primer.min.js").stat().st_size > 1_000_000
    assert not (site / "assets/vendor/plotly.min.js").exists()   # the full bundle is never shipped
    assert not (site / "assets/vendor/katex").exists()   # math is MathML made at build (hooks/mathml.py)


def test_languages_live_at_root_and_en(site):
    assert '<html lang="zh"' in (site / "index.html").read_text()
    assert '<html lang="en"' in (site / "en/index.html").read_text()


def test_chinese_headings_get_readable_anchors(read_page):
    html = read_page("zh", "05-mask.md")
    assert 'id="填-0-还是填-∞一个不会报错的-bug"' in html or re.search(r'id="[^"]*不会报错[^"]*"', html)
    assert not re.search(r'<h2 id="_\d+"', html)


def test_chinese_search_index_is_segmented(site):
    index = (site / "search/search_index.json").read_text(encoding="utf-8")
    assert "\\u200b" in index or "\u200b" in index


# ---- the chapter "The mask is the whole difference": numbers printed by primer at build time

@pytest.mark.parametrize("lang", LANGS)
def test_leak_is_on_the_page(read_page, lang):
    html = read_page(lang, "05-mask.md")
    assert "<strong>64.4%</strong>" in html
    assert "<strong>0.0%</strong>" in html
    for share in ("9.0%", "24.5%", "66.5%"):
        assert share in html


@pytest.mark.parametrize("lang", LANGS)
def test_weights_table_is_on_the_page(read_page, lang):
    html = read_page(lang, "05-mask.md")
    cells = re.findall(r"<td>(\d+)%</td>", html)
    assert ["100", "0", "0", "83", "17", "0", "9", "34", "56"] == cells[:9]


@pytest.mark.parametrize("lang", LANGS)
def test_each_figure_has_a_fixed_div_id(read_page, lang):
    html = read_page(lang, "05-mask.md")
    for div in ("fig-scores-mask-softmax", "fig-row-walk", "fig-leak-row2", "fig-window-slider", "fig-padding-masks"):
        assert f'id="{div}"' in html


@pytest.mark.parametrize("lang", LANGS)
def test_padding_table_is_on_the_page(read_page, lang):
    from conftest import table_rows
    rows = [r for r in table_rows(read_page(lang, "05-mask.md")) if len(r) == 5 and r[2].isdigit()]
    # (padded query rows, rows the plain AND empties, real rows vs each sentence alone): only left padding
    # under a causal mask empties rows, and the real rows never move beyond rounding
    assert [r[2:] for r in rows] == [["5", "0", "< 1e-12"], ["5", "0", "< 1e-12"], ["5", "0", "< 1e-12"],
                                     ["5", "5", "< 1e-12"]]


def test_window_refusal_shows_primers_own_message(read_page):
    from primer import window_mask
    try:
        window_mask(5, 0)
    except ValueError as err:
        message = str(err)
    for lang in LANGS:
        html = read_page(lang, "05-mask.md")
        for escaped, char in (("\\u003e", ">"), ("\\u003c", "<"), ("\\u002f", "/"), ("\\u0027", "'"), ("\\u0026", "&")):
            html = html.replace(escaped, char)  # plotly JSON-escapes these inside <script>
        assert message in html


@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("lang", LANGS)
def test_links_are_relative_so_the_site_works_under_a_sub_path(read_page, lang, name):
    assert re.findall(r'(?:href|src)="/(?!/)[^"]*"', read_page(lang, name)) == []


def test_language_switcher_on_the_home_pages(read_page):
    assert '<a href="en/" hreflang="en"' in read_page("zh", "index.md")
    assert '<a href="../" hreflang="zh"' in read_page("en", "index.md")


@pytest.mark.parametrize("name", page_names())
def test_language_switcher_links_each_page_to_its_twin(read_page, name):
    stem = "" if name == "index.md" else name[:-3] + "/"
    zh, en = read_page("zh", name), read_page("en", name)
    up = "../" * stem.count("/")
    assert f'<a href="{up}en/{stem}" hreflang="en"' in zh and '<a href="./" hreflang="zh"' in zh
    assert f'<a href="../{up}{stem}" hreflang="zh"' in en and '<a href="./" hreflang="en"' in en


@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("lang", LANGS)
def test_no_hreflang_alternates_in_head_so_material_fetches_no_page_sitemap(read_page, lang, name):
    head = read_page(lang, name).split("</head>", 1)[0]
    assert re.findall(r'<link\b[^>]*\bhreflang=', head) == []
    assert 'rel="icon"' in head and 'name="viewport"' in head  # the rest of Material's head is there


@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("lang", LANGS)
def test_no_build_internals_ship_in_the_pages(read_page, lang, name):
    assert "primer-exec-ids" not in read_page(lang, name)


def test_every_built_page_reads_the_same_for_the_link_check_as_with_beautifulsoup(site):
    """The link check reads anchors and links with hooks/page_scan.py; htmlproofer's BeautifulSoup must find the same on every page."""
    import sys

    from conftest import ROOT, beautifulsoup_reading
    sys.path.insert(0, str(ROOT / "hooks"))
    try:
        import page_scan
    finally:
        sys.path.pop(0)
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 50
    counts = [0, 0]
    for page in pages:
        html = page.read_text(encoding="utf-8")
        anchors, links = page_scan.scan(html)
        assert (anchors, links) == beautifulsoup_reading(html), page.relative_to(site)
        counts[0] += len(anchors)
        counts[1] += len(links["a"])
    assert counts[0] > 1000 and counts[1] > 1000   # the comparison saw real pages, not empty readings

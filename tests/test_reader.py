"""What a reader does beyond reading a page, in chromium: search in either language, the dark palette, a phone's
width, print. Screenshots and the printed chapter 5 go to tests/artifacts/ for a person to look at."""

import re
import shutil
import subprocess
from urllib.parse import urljoin

import pytest
from browser_util import DESKTOP, PHONE, url_path, wait_drawn
from site_reader import LANGS, NEW_PLOT, ROOT, html_path

pytestmark = pytest.mark.browser
ARTIFACTS = ROOT / "tests" / "artifacts"
CHAPTER = "05-mask.md"  # the model chapter: every kind of figure and table a chapter has


# ---- search, as a reader types it


def search(page, query):
    """Type query into Material's search box; return the result links (absolute, in rank order)."""
    box = page.locator("input.md-search__input")
    links = page.locator(".md-search-result__item > a.md-search-result__link")
    box.click()
    box.fill("")
    box.press("Backspace")  # a key released: Material reads the empty box and takes an earlier query's results away
    links.first.wait_for(state="detached", timeout=10_000)
    if query.isascii():
        box.press_sequentially(query, delay=20)
    else:  # an input method commits the characters as one string, then the committing key is released
        page.keyboard.insert_text(query)
        page.keyboard.up("Space")
    try:
        links.first.wait_for(timeout=10_000)  # the search worker loads the index first
    except Exception:  # noqa: BLE001 - say what the result line shows
        pytest.fail(
            f"search for {query!r} showed no result: {page.locator('.md-search-result__meta').text_content()!r}"
        )
    return [urljoin(page.url, a.get_attribute("href")) for a in links.all()]


def test_chinese_search_from_the_zh_home_finds_zh_pages_first(open_page, base_url):
    page = open_page("").page
    for query in ("掩码", "对角线"):  # one after the other in the same box, as a reader searches again
        hrefs = search(page, query)
        assert not hrefs[0].startswith(base_url + "en/"), f"{query!r}: the first result is not a Chinese page: {hrefs}"


def test_english_search_from_an_en_page_ranks_en_pages_first(site, open_page, base_url):
    hrefs = search(open_page(url_path(site, "en", "index.md")).page, "mask")
    ranks = {
        lang: [i for i, h in enumerate(hrefs) if h.startswith(base_url + "en/") == (lang == "en")] for lang in LANGS
    }
    assert ranks["en"] and ranks["en"][0] == 0, f"the first result for 'mask' is not an English page: {hrefs}"
    if ranks["zh"]:
        assert sum(ranks["en"]) / len(ranks["en"]) < sum(ranks["zh"]) / len(ranks["zh"]), hrefs


def test_the_search_index_loads_only_when_the_reader_starts_to_search(open_page):
    """A page load fetches no search index, worker or lunr language file; Material's '/' key does, and a query typed
    while the index is on its way shows its results once it arrives."""
    visit = open_page("")
    page = visit.page
    page.wait_for_load_state("networkidle")
    page.wait_for_function("() => typeof document$ !== 'undefined'")  # Material's bundle has started (its keys with it)
    page.wait_for_timeout(500)
    searchy = lambda: [u for u in visit.requests if re.search(r"search_index|/workers/search\.|/lunr/", u)]  # noqa: E731
    assert searchy() == [], f"fetched before any search: {searchy()}"
    held = []  # the index request, answered only after the reader has typed
    page.route("**/search/search_index.json", lambda route: held.append(route))
    page.keyboard.press("/")  # Material's shortcut: focus the search box
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "pressing / to search did not request search/search_index.json"
    page.keyboard.insert_text("掩码")
    page.keyboard.up("Space")
    page.wait_for_timeout(300)
    links = page.locator(".md-search-result__item > a.md-search-result__link")
    assert links.count() == 0  # no index yet, no results yet
    held[0].continue_()
    links.first.wait_for(timeout=10_000)
    assert any("/lunr/" in u for u in searchy()), "the worker's language files were not seen"
    assert not visit.problems()


# ---- dark palette: figures follow Material's toggle, without a reload

THEME_JS = """() => { const ctx = document.createElement('canvas').getContext('2d');
  const norm = c => { ctx.fillStyle = '#000'; ctx.fillStyle = c; return ctx.fillStyle; };   // one spelling per colour
  return Object.fromEntries([...document.querySelectorAll('.js-plotly-plot')].map(el => [el.id, {
    scheme: el.dataset.scheme || null, font: el._fullLayout.font.color,
    grid: Object.keys(el._fullLayout).filter(k => /^[xy]axis\\d*$/.test(k)).map(k => el._fullLayout[k].gridcolor),
    scales: el.data.filter(t => t.type === 'heatmap').map(t => JSON.stringify(
      Array.isArray(t.colorscale) ? t.colorscale.map(s => [s[0], norm(s[1])]) : t.colorscale)),
    annotations: (el._fullLayout.annotations || []).map(a => norm(a.font.color)),
    texts: [...el.querySelectorAll('.main-svg .xtick text, .main-svg .ytick text, .main-svg .annotation-text')]
      .slice(0, 40).map(t => getComputedStyle(t).fill)}])); }"""
# Count Plotly.react calls (a redraw of a drawn figure) from the moment plotly.js defines window.Plotly.
COUNT_REDRAWS_JS = """(() => { let plotly; window.__redraws = 0;
  Object.defineProperty(window, 'Plotly', {configurable: true, get: () => plotly, set: p => {
    plotly = p; const react = p.react;
    p.react = function () { window.__redraws++; return react.apply(this, arguments); }; }});
})()"""


def rgb(css):
    """Return (r, g, b, a) of a CSS colour as chromium reports it: rgb(...), rgba(...) or #rrggbb."""
    if css.startswith("#"):
        return tuple(int(css[i : i + 2], 16) for i in (1, 3, 5)) + (1.0,)
    nums = [float(v) for v in re.findall(r"[\d.]+", css)]
    return tuple(nums[:3]) + ((nums[3],) if len(nums) > 3 else (1.0,))


def contrast(fg, bg):
    """Return the WCAG contrast ratio of fg drawn over the opaque bg."""
    fg = tuple(fg[3] * f + (1 - fg[3]) * b for f, b in zip(fg[:3], bg[:3]))

    def lum(c):
        lin = [v / 255 / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c[:3]]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(fg), lum(bg)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def toggle_palette(page):
    """Click Material's palette toggle as a reader does; return the new scheme once every figure has followed it."""
    before = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    page.locator("form[data-md-component=palette] label:visible").first.click()
    page.wait_for_function("s => document.body.getAttribute('data-md-color-scheme') !== s", arg=before)
    scheme = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    page.wait_for_function(
        "s => [...document.querySelectorAll('.js-plotly-plot')].every(el => el.dataset.scheme === s)",
        arg=scheme,
        timeout=10_000,
    )
    page.wait_for_timeout(300)
    return scheme


def test_figures_follow_the_dark_palette_without_a_reload(site, open_page):
    """In zh: en draws the same figures but for their words (tests/test_site.py), themed by the same script."""
    visit = open_page(url_path(site, "zh", CHAPTER))
    page = visit.page
    ids = NEW_PLOT.findall(html_path(site, "zh", CHAPTER).read_text(encoding="utf-8"))
    assert set(ids) <= set(wait_drawn(page, ids))
    page.evaluate("window.__notReloaded = true")
    light = page.evaluate(THEME_JS)
    assert toggle_palette(page) == "slate" and page.evaluate("window.__notReloaded === true")
    dark, bg = page.evaluate(THEME_JS), rgb(page.evaluate("getComputedStyle(document.body).backgroundColor"))
    assert contrast((255, 255, 255, 1), bg) > 10, f"the slate background {bg} is not dark"
    problems = []
    for fid, d in dark.items():
        problems += [f"{fid}: the font colour stayed {d['font']}"] * (d["font"] == light[fid]["font"])
        problems += [f"{fid}: the grid colours stayed {d['grid']}"] * bool(
            d["grid"] and d["grid"] == light[fid]["grid"]
        )
        problems += [
            f"{fid}: a heatmap kept its light colour scale" for a, b in zip(light[fid]["scales"], d["scales"]) if a == b
        ]
        problems += [
            f"{fid}: text {fill} on slate has contrast {contrast(rgb(fill), bg):.1f} < 4.5"
            for fill in d["texts"]
            if contrast(rgb(fill), bg) < 4.5
        ]
    assert light and not problems, "\n".join(problems)
    assert toggle_palette(page) == "default"
    back = page.evaluate(THEME_JS)
    assert all(
        back[f]["scales"] == light[f]["scales"] and back[f]["annotations"] == light[f]["annotations"] for f in light
    )
    # A reader who chose dark opens the page again: each figure's first draw is already dark, never redrawn.
    assert toggle_palette(page) == "slate"
    page.add_init_script(COUNT_REDRAWS_JS)
    page.reload(wait_until="load")
    assert set(ids) <= set(wait_drawn(page, ids))
    reopened = page.evaluate(THEME_JS)
    assert page.evaluate("window.__redraws") == 0
    keys = ("scheme", "font", "grid", "scales", "annotations")
    assert {f: [r[k] for k in keys] for f, r in reopened.items()} == {f: [d[k] for k in keys] for f, d in dark.items()}
    assert not visit.problems()


# ---- a phone's width, and print

PRINT_LAYOUT_JS = """() => {
  const hidden = sel => [...document.querySelectorAll(sel)]
    .every(e => getComputedStyle(e).display === 'none' || !e.offsetParent);
  const figs = [...document.querySelectorAll('article .js-plotly-plot')];
  const fixed = [...document.querySelectorAll('body *')].filter(e => {
    const s = getComputedStyle(e), r = e.getBoundingClientRect();
    return (s.position === 'fixed' || s.position === 'sticky') && s.display !== 'none' && s.visibility !== 'hidden'
      && r.width * r.height > 0; });
  return {nav: hidden('.md-header, .md-tabs, .md-sidebar, .md-footer, .md-top'), figures: figs.length,
          drawn: figs.filter(f => f.getBoundingClientRect().height > 100 && f.querySelector('.main-svg')).length,
          tables: [...document.querySelectorAll('article table')]
            .filter(t => t.offsetParent && !t.closest('details')).length,
          fixed: fixed.map(e => e.className || e.tagName)};
}"""


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_5_fits_a_phone_and_prints_without_navigation(site, open_page, lang):
    """Full-page screenshots at desktop and phone width (never wider than the window), then chromium's print: every
    figure drawn, the tables shown, no navigation, the title in the PDF's text (poppler's pdftotext)."""
    visit = open_page(url_path(site, lang, CHAPTER))
    page = visit.page
    ids = NEW_PLOT.findall(html_path(site, lang, CHAPTER).read_text(encoding="utf-8"))
    ARTIFACTS.mkdir(exist_ok=True)
    for viewport in (PHONE, DESKTOP):  # the desktop last: print as from a desktop window
        page.set_viewport_size(viewport)
        page.wait_for_timeout(300)  # Material and the responsive figures re-lay out on resize
        assert set(ids) <= set(wait_drawn(page, ids))
        page.screenshot(path=str(ARTIFACTS / f"05-mask-{lang}-{viewport['width']}.png"), full_page=True)
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{lang}/{CHAPTER} scrolls sideways by {overflow}px at {viewport['width']}px wide"
    page.emulate_media(media="print")
    page.wait_for_timeout(500)
    layout = page.evaluate(PRINT_LAYOUT_JS)
    assert layout["nav"] and layout["drawn"] == layout["figures"] == len(ids), layout
    assert layout["tables"] >= 1 and not layout["fixed"], layout
    pdf = ARTIFACTS / f"05-mask-{lang}.pdf"
    pdf.write_bytes(page.pdf(format="A4", print_background=True))
    exe = shutil.which("pdftotext")
    assert exe, "pdftotext is missing: run `make system-deps` (as root), which installs poppler-utils"
    text = subprocess.run([exe, "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    title = page.locator("article h1").text_content().strip().rstrip("¶").strip()
    assert title.split()[0] in text, f"the chapter title {title!r} is not in the PDF"
    assert not visit.problems()

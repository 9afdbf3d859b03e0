"""What a figure gives a reader who cannot or will not use it as drawn (issue 45): no way to another host, a notice
and the numbers without JavaScript, a refusal shown whole, no "-0.00", tooltips that show their definition's text."""

import html as htmllib
import re
from html.parser import HTMLParser

import markdown
import numpy as np
import plotly.graph_objects as go
import pytest
from hook_loader import load_hook
from site_reader import LANGS, html_path

from primer.figures import mask as mask_figures
from primer.figures import to_html
from primer.figures.html import PLOTLY_CONFIG
from primer.language import labels
from primer.masks import window_mask

terms = load_hook("terms")


def test_no_figure_offers_the_share_button_or_the_toolbar():
    assert PLOTLY_CONFIG["showSendToCloud"] is False and PLOTLY_CONFIG["displayModeBar"] is False
    out = to_html(go.Figure(go.Scatter(x=[1], y=[2])), "fig-x")
    assert '"showSendToCloud": false' in out and '"displayModeBar": false' in out


@pytest.mark.site
@pytest.mark.parametrize("lang", LANGS)
def test_every_built_figure_has_the_config_and_a_noscript(site, lang):
    pages = sorted((site / ("en" if lang == "en" else "")).glob("[0-9][0-9]-*/index.html"))
    assert pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        figures = text.count('class="plotly-graph-div"')
        assert text.count('"showSendToCloud": false') == figures, page
        assert text.count('<noscript><p class="primer-figure-nojs">') == figures, page
        assert "cloud.plotly.com" not in text and "plotlyServerURL" not in text


def test_without_javascript_a_heatmap_says_so_and_tables_its_numbers():
    fig = go.Figure(
        go.Heatmap(z=[[1.0, 0.123456], [float("nan"), 0.5]], x=["a", "b"], y=["c", "<b>d</b> & e"], colorscale="Blues")
    )
    noscript = re.search(r"<noscript>(.*?)</noscript>", to_html(fig, "fig-h")).group(1)
    assert labels("figure_html", "en")["no_js_table"] in noscript
    cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", noscript)
    assert cells == ["", "a", "b", "c", "1", "0.1235", "d &amp; e", "", "0.5"]
    for other in (go.Heatmap(z=np.zeros((30, 30)), colorscale="Blues"), go.Scatter(x=[1, 2], y=[3, 4])):
        noscript = re.search(r"<noscript>(.*?)</noscript>", to_html(go.Figure(other), "fig-b")).group(1)
        assert "<table>" not in noscript and labels("figure_html", "en")["no_js"] in noscript  # too big, or a chart


@pytest.mark.parametrize("lang", LANGS)
def test_the_refused_window_is_shown_whole_in_the_pages_language_in_lines_a_phone_shows(lang):
    with pytest.raises(ValueError) as refusal:
        window_mask(5, 0)
    assert labels("mask", "en")["refused_window"].format(window=0) == str(refusal.value)  # en is primer's message
    scores = np.zeros((5, 5))
    fig = mask_figures.sliding_window(
        scores, [1, 0], {1: (scores, window_mask(5, 1))}, {0: str(refusal.value)}, lang=lang
    )
    (note,) = [a for s in fig.layout.sliders[0].steps for a in s.args[-1].get("annotations", [])]
    lines = note["text"].split("<br>")
    text = labels("mask", lang)
    assert "".join(lines).replace(" ", "") == (text["refused"] + text["refused_window"].format(window=0)).replace(
        " ", ""
    )
    assert "width" not in note and max(map(len, lines)) <= 44


def test_an_entropy_of_zero_prints_without_a_sign():
    assert f"{max((-0.0), 0.0) + 0.0:.2f}" == "0.00" and f"{max(-1e-17, 0.0) + 0.0:.2f}" == "0.00"


class TitleReader(HTMLParser):
    """Read the abbr titles of an HTML fragment as a browser does (the attribute's entities decoded once)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.titles = []

    def handle_starttag(self, tag, attrs):
        if tag == "abbr":
            self.titles.append(dict(attrs)["title"])


@pytest.mark.parametrize(
    "definition", ["p(y) = ∏ p(y_t | y_<t)", "(a <bos> in front)", "<img src=x onerror=alert(1)>", "a & b &lt; c"]
)
def test_a_tooltip_title_reaches_materials_innerhtml_as_the_definitions_text(definition):
    out = markdown.markdown("a term here", extensions=[terms.TermExtension({"term": definition})])
    reader = TitleReader()
    reader.feed(out)
    (title,) = reader.titles  # what the browser's abbr.title is; Material sets it as innerHTML
    assert "<" not in title and htmllib.unescape(title) == definition


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_every_terms_tooltip_shows_its_definition_exactly(site, open_page, lang):
    """D8: hover one use of every term on the chapter pages; Material's tooltip text equals the definition."""
    from browser_util import url_path
    from term_list import terms

    TERMS = terms()
    wanted = {t[lang].strip(): t["def_" + lang].strip() for t in TERMS if t.get("tooltip", True)}
    seen = {}
    for name in sorted({t["chapter"] for t in TERMS}):
        if not html_path(site, lang, name).exists():
            continue
        visit = open_page(url_path(site, lang, name))
        page = visit.page
        page.wait_for_timeout(300)
        abbrs = page.locator("article abbr")
        for i in range(abbrs.count()):
            abbr = abbrs.nth(i)
            term = abbr.text_content().strip()
            if term in seen or term not in wanted or not abbr.is_visible():
                continue
            abbr.scroll_into_view_if_needed()
            abbr.hover()
            tip = page.locator(".md-tooltip2--active .md-tooltip2__inner, .md-tooltip--active .md-tooltip__inner")
            tip.first.wait_for(timeout=5000)
            seen[term] = tip.first.inner_text().strip()
            page.mouse.move(0, 0)
            page.wait_for_timeout(150)
        assert not visit.problems()
    assert seen, "no tooltip hovered"
    wrong = {t: (got, wanted[t]) for t, got in seen.items() if got != wanted[t]}
    assert not wrong, wrong
    assert {"autoregressive", "shift right"} & set(seen) if lang == "en" else {"自回归", "右移"} & set(seen)


TWINS_JS = """id => {
  const el = document.getElementById(id), box = el.parentElement.querySelector('.primer-figure-keys');
  return { focusable: el.querySelectorAll('a[href], button, input, [tabindex]:not([tabindex="-1"])').length,
           ranges: box ? box.querySelectorAll('input[type=range]').length : 0,
           buttons: box ? box.querySelectorAll('button').length : 0,
           sliders: (el.layout.sliders || []).map(s => s.active || 0),
           menus: (el.layout.updatemenus || []).map(m => m.active || 0) }; }"""


@pytest.mark.browser
def test_a_figures_slider_and_buttons_work_from_the_keyboard_and_its_toolbar_takes_no_tab_stop(site, open_page):
    """D6: on chapter 5, the sliding-window slider and the padding buttons by keyboard alone; no control inside a
    plotly figure takes a tab stop; the twin shows with a focus ring when it has the focus; axe stays quiet."""
    from browser_util import axe_problems, url_path, wait_drawn

    visit = open_page(url_path(site, "en", "05-mask.md"))
    page = visit.page
    assert {"fig-sliding-window", "fig-padding-masks"} <= set(wait_drawn(page, ["fig-sliding-window"]))
    slider = page.evaluate(TWINS_JS, "fig-sliding-window")
    assert slider["focusable"] == 0 and slider["ranges"] == 1 and slider["sliders"] == [0]
    keys = page.locator("#fig-sliding-window").locator("xpath=..").locator(".primer-figure-keys input[type=range]")
    keys.focus()
    assert keys.is_visible() and keys.evaluate("e => getComputedStyle(e).outlineStyle") != "none"
    page.keyboard.press("End")
    page.wait_for_function("() => document.getElementById('fig-sliding-window').layout.sliders[0].active > 0")
    steps = page.evaluate("() => document.getElementById('fig-sliding-window').layout.sliders[0].steps.length")
    assert page.evaluate(TWINS_JS, "fig-sliding-window")["sliders"] == [steps - 1]
    assert page.evaluate(  # the refusal's annotation is what the last step shows
        "() => document.getElementById('fig-sliding-window').layout.annotations.length"
    )
    menus = page.evaluate(TWINS_JS, "fig-padding-masks")
    assert menus["focusable"] == 0 and menus["buttons"] >= 2
    second = page.locator("#fig-padding-masks").locator("xpath=..").locator(".primer-figure-keys button").nth(1)
    second.focus()
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('fig-padding-masks').layout.updatemenus.some(m => m.active)")
    assert second.get_attribute("aria-pressed") == "true"
    assert axe_problems(page) == [] and visit.problems() == []
    # the dark scheme redraws every figure (plotly-theme.js): with its own config, so still no toolbar button
    assert page.locator(".modebar-btn").count() == 0
    page.evaluate("() => document.body.setAttribute('data-md-color-scheme', 'slate')")
    page.wait_for_function("() => document.getElementById('fig-sliding-window').dataset.scheme === 'slate'")
    page.wait_for_timeout(300)
    assert page.locator(".modebar-btn").count() == 0 and visit.problems() == []


@pytest.mark.browser
def test_a_code_or_result_tab_reached_by_the_keyboard_shows_a_ring(site, open_page):
    """D25: Material colours a focused tab as it colours the selected one; the site adds an outline."""
    from browser_util import url_path

    page = open_page(url_path(site, "en", "05-mask.md")).page
    page.locator(".tabbed-set > input").first.focus()
    page.keyboard.press("ArrowRight")
    ring = page.evaluate(
        """() => { const a = document.activeElement, set = a.closest('.tabbed-set');
                  const i = [...set.querySelectorAll(':scope > input')].indexOf(a);
                  const s = getComputedStyle(set.querySelectorAll(':scope > .tabbed-labels > label')[i]);
                  return [a.tagName, s.outlineStyle, s.outlineWidth]; }"""
    )
    assert ring == ["INPUT", "solid", "2px"], ring

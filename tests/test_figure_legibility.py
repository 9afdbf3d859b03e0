"""Every plotly figure of both languages, measured where a reader sees it: in Material's content column at a desktop
width, at a phone's (375 px) and at a desktop's zoomed to 200 % (640 px), in the light scheme, and in the dark one on
the desktop (tests/browser_util.py opens the pages).

Each text a figure draws (its title, axis and colour-bar titles, annotations, legend entries, tick labels, the
labels on its marks, its controls' words) must be whole: inside the figure's SVG, and inside the plot area when the
plot area clips it; the title must not lie under the toolbar (the modebar, shown when the pointer is over the
figure). Titles, annotations, mark labels and legend entries must not cover one another, nor a tick label. A figure
with a legend names every marker symbol (other than a plain circle) it draws. Sizes come from the drawn page
(getBoundingClientRect), so a longer Chinese or English label fails where it is drawn, in the language that draws it.
"""

import pytest
from browser_util import REVEAL_JS, url_path, wait_drawn
from site_reader import DOCS, LANGS, html_path, page_figures, page_names

pytestmark = pytest.mark.browser

# A common desktop window. Material shows both sidebars there, and its content column (688 px) is the narrowest of any
# window from 960 px up: at 1024 px the table of contents folds into the navigation and the column grows to 750 px,
# at 960 px it is 686 px. Then a phone: 375 px is the narrowest common one (iPhone SE to 13 mini), and Material's
# column there is the window less its margins. Last a desktop window zoomed to 200 % (1280 x 900 device px: 640 x 450
# CSS px, a 608 px column), the breaker's case, on the chapters the breaker measured there: a page of its own.
# The dark scheme draws the same boxes in other colours: it is measured once a page, on the desktop.
VIEWPORTS = {"1280x800": {"width": 1280, "height": 800}, "375x812": {"width": 375, "height": 812}}
PHONE = "375x812"
ZOOM = {"640x450": {"width": 640, "height": 450}}
ZOOM_PAGES = ("05-mask.md", "07-decoder.md", "09-choosing.md")
SCHEMES = ("default", "slate")  # Material's light and dark palettes, switched with the header's toggle
SCHEMES_AT = {"1280x800": SCHEMES}  # the schemes measured at a viewport; the light one elsewhere
SLACK = 1.0  # px: a box may touch an edge (anti-aliasing, sub-pixel layout) but not cross it
MIN_OVERLAP = 2.0  # px in each direction before two boxes count as covering one another


def figure_pages():
    """Return the zh page names whose built page holds a plotly figure (en has the same: tests/test_site.py)."""
    return [name for name in page_names() if 'html="1"' in (DOCS / "zh" / name).read_text("utf-8")]


# Every text of one drawn figure with its box, the box of whatever clips it, and its kind; then the problems.
MEASURE_JS = """(el, [slack, minOverlap]) => {
  const svg = el.querySelector('.main-svg');
  if (!svg) return ['not drawn'];
  const R = r => ({l: r.left, t: r.top, r: r.right, b: r.bottom});
  const fig = R(svg.getBoundingClientRect());
  const column = el.parentElement.getBoundingClientRect();
  const problems = [];
  if (fig.r > column.right + slack)
    problems.push(`the figure is ${Math.round(fig.r - fig.l)} px wide in a column of ${Math.round(column.width)} px`);
  const modebar = el.querySelector('.modebar');
  const bar = modebar && modebar.getBoundingClientRect().width > 0 ? R(modebar.getBoundingClientRect()) : null;

  // The rectangle of a clipPath an ancestor of node applies, in client coordinates (null: nothing clips it).
  const clipOf = node => {
    for (let a = node.parentElement; a && a !== el; a = a.parentElement) {
      const ref = a.getAttribute('clip-path');
      const id = ref && (ref.match(/#([^)'"]+)/) || [])[1];
      const rect = id && document.getElementById(id) && document.getElementById(id).querySelector('rect');
      if (!rect) continue;
      const m = a.getScreenCTM(), x = +rect.getAttribute('x') || 0, y = +rect.getAttribute('y') || 0;
      const w = +rect.getAttribute('width'), h = +rect.getAttribute('height');
      const pts = [[x, y], [x + w, y], [x, y + h], [x + w, y + h]]
        .map(([px, py]) => [m.a * px + m.c * py + m.e, m.b * px + m.d * py + m.f]);
      return {l: Math.min(...pts.map(p => p[0])), r: Math.max(...pts.map(p => p[0])),
              t: Math.min(...pts.map(p => p[1])), b: Math.max(...pts.map(p => p[1]))};
    }
    return null;
  };
  const KINDS = [
    ['title', '.g-gtitle text'],
    ['axis title', '.infolayer > g[class^="g-"][class$="title"]:not(.g-gtitle) text, .cbtitle text'],
    ['annotation', '.annotation-text'],
    ['legend entry', '.legend .legendtext'],
    ['tick label', '.xtick text, .ytick text, .cbaxis text'],
    ['mark label', '.scatterlayer .textpoint text, .barlayer .bartext'],
    ['control', '.slider-container text, .updatemenu-container text'],
  ];
  const items = [];
  for (const [kind, selector] of KINDS) {
    for (const node of el.querySelectorAll(selector)) {
      const text = node.textContent.replace(/\\s+/g, ' ').trim();
      const style = getComputedStyle(node);
      if (!text || style.display === 'none' || style.visibility === 'hidden') continue;
      let hidden = false;
      for (let a = node; a && a !== el; a = a.parentElement)
        if (a.getAttribute('display') === 'none' || getComputedStyle(a).opacity === '0') hidden = true;
      const box = R(node.getBoundingClientRect());
      if (hidden || box.r - box.l <= 0 || box.b - box.t <= 0) continue;
      items.push({kind, text: text.length > 40 ? text.slice(0, 39) + '…' : text, box, clip: clipOf(node),
                  legend: !!node.closest('.legend')});
    }
  }
  const out = (a, b) => a.l < b.l - slack || a.r > b.r + slack || a.t < b.t - slack || a.b > b.b + slack;
  const cover = (a, b) => Math.min(a.r, b.r) - Math.max(a.l, b.l) >= minOverlap
                       && Math.min(a.b, b.b) - Math.max(a.t, b.t) >= minOverlap;
  const px = v => Math.round(v);
  for (const it of items) {
    const name = `${it.kind} '${it.text}'`;
    if (out(it.box, fig)) {
      const side = [['left', fig.l - it.box.l], ['right', it.box.r - fig.r], ['top', fig.t - it.box.t],
                    ['bottom', it.box.b - fig.b]].filter(([, d]) => d > slack).map(([s, d]) => `${s} ${px(d)} px`);
      problems.push(`${name} is clipped: outside the figure by ${side.join(', ')}`);
    } else if (it.clip && out(it.box, it.clip)) {
      problems.push(`${name} is cut by the plot area's edge`);
    }
    if (bar && it.kind === 'title' && cover(it.box, bar)) problems.push(`${name} is under the toolbar`);
  }
  const LABELS = ['title', 'axis title', 'annotation', 'legend entry', 'mark label'];
  const labels = items.filter(it => LABELS.includes(it.kind));
  const ticks = items.filter(it => it.kind === 'tick label');
  for (let i = 0; i < labels.length; i++) {
    const a = labels[i];
    for (const b of labels.slice(i + 1).concat(ticks)) {
      if (a.legend && b.legend) continue;   // the legend lays out its own entries
      if (cover(a.box, b.box)) problems.push(`${a.kind} '${a.text}' and ${b.kind} '${b.text}' overlap`);
    }
  }
  // A marker symbol drawn only by traces the legend does not list is a mark a reader cannot name. Plain circles are
  // left out: the site draws them as a token (its word beside it) or as the point a slider picks on a listed curve.
  const layout = el.layout || {};
  const drawn = el.data.filter(t => t.visible !== false && t.visible !== 'legendonly'
                                    && (t.type || 'scatter') === 'scatter' && /markers/.test(t.mode || ''));
  const listed = t => t.showlegend !== false && layout.showlegend !== false;
  if (el.data.some(t => listed(t) && t.visible !== false && t.name)) {
    const symbol = t => String((t.marker || {}).symbol || 'circle');
    const named = new Set(drawn.filter(listed).map(symbol));
    for (const s of new Set(drawn.filter(t => !listed(t)).map(symbol)))
      if (!named.has(s) && s !== 'circle') problems.push(`the ${s} markers have no legend entry`);
  }
  return [...new Set(problems)];
}"""

ALL_SIZED_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].every(el => {
  const svg = el.querySelector('.main-svg');
  if (el.dataset.primerFitting) return false;  // plotly-fit.js is still fitting it to the new width
  const width = el.getBoundingClientRect().width;
  return !svg || el.offsetWidth === 0 || Math.abs(svg.getBoundingClientRect().width - width) < 2;
})"""
SCHEME_DRAWN_JS = """scheme => document.body.getAttribute('data-md-color-scheme') === scheme
  && [...document.querySelectorAll('.js-plotly-plot')].every(el => !el.querySelector('.main-svg')
                                                                   || (el.dataset.scheme || 'default') === scheme)"""


def settle(page, js, arg=None, timeout=10, pause=150):
    """Wait until js(arg) is true (a relayout after a resize, a redraw after a scheme switch), then pause ms."""
    page.wait_for_function(js, arg=arg, polling=50, timeout=timeout * 1000)
    page.wait_for_timeout(pause)  # plotly's responsive resize is debounced: let its last frame land


def switch_scheme(page, scheme):
    """Press the header's palette toggle, as a reader does, until the page is in scheme."""
    if page.evaluate("() => document.body.getAttribute('data-md-color-scheme')") != scheme:
        page.locator("[data-md-component=palette] label:visible").first.click()
    settle(page, SCHEME_DRAWN_JS, scheme, pause=50)


def legibility_problems(page, divs):
    """Return each figure's problems (MEASURE_JS), as '<div>: problem'."""
    problems = []
    for div in divs:
        el = page.locator(f'[id="{div}"]')
        problems += [f"{div}: {p}" for p in el.evaluate(MEASURE_JS, [SLACK, MIN_OVERLAP])]
    return problems


def measure_page(page, divs, viewports=VIEWPORTS, schemes=None):
    """Reveal every figure, then measure them at each viewport in its schemes (SCHEMES_AT unless given); return
    {problem: [where]}."""
    drawn = wait_drawn(page, divs)
    found = {f"{div}: never drew": ["-"] for div in divs if div not in drawn}
    for div in drawn:
        page.locator(f'[id="{div}"]').evaluate(REVEAL_JS)
    if not page.evaluate(ALL_SIZED_JS):  # a figure drawn while hidden keeps its size until the window resizes
        page.evaluate("() => window.dispatchEvent(new Event('resize'))")
        settle(page, ALL_SIZED_JS)
    # The desktop first, then the phone: a figure narrowed and widened again on one page is not always drawn as a
    # fresh desktop page draws it (zh 12's top-k figure: its legend then covers its tick labels until a reload).
    for name, size in viewports.items():
        if page.viewport_size != size:  # the page opens at the first: no resize to wait for
            page.set_viewport_size(size)
            settle(page, ALL_SIZED_JS)
        for scheme in schemes or SCHEMES_AT.get(name, SCHEMES[:1]):
            switch_scheme(page, scheme)
            for problem in legibility_problems(page, drawn):
                found.setdefault(problem, []).append(f"{name} {'dark' if scheme == 'slate' else 'light'}")
    return found


@pytest.mark.parametrize("name", figure_pages())
@pytest.mark.parametrize("lang", LANGS)
def test_every_text_of_every_figure_is_whole_and_uncovered(site, open_page, lang, name):
    divs = list(page_figures(html_path(site, lang, name).read_text("utf-8")))
    assert divs, f"{lang}/{name} holds no figure: figure_pages() is out of date"
    visit = open_page(url_path(site, lang, name), viewport=VIEWPORTS["1280x800"])
    found = measure_page(visit.page, divs)
    if name in ZOOM_PAGES:
        zoomed = open_page(url_path(site, lang, name), viewport=ZOOM["640x450"])
        for problem, where in measure_page(zoomed.page, divs, ZOOM).items():
            found.setdefault(problem, []).extend(where)
    lines = [f"{problem}  [{', '.join(where)}]" for problem, where in found.items()]
    assert not lines, f"{lang}/{name}: {len(lines)} legibility problems\n  " + "\n  ".join(lines)


def test_the_zoomed_pages_hold_figures():
    assert set(ZOOM_PAGES) <= set(figure_pages()), sorted(set(ZOOM_PAGES) - set(figure_pages()))


# ---- planted problems: each check can fail

PLANT_JS = """() => {
  const div = document.createElement('div');
  div.id = 'fig-planted';
  document.querySelector('article').prepend(div);
  const long = 'A title long enough to run under the toolbar at the right of the figure, and then some more words';
  return Plotly.newPlot(div, [
      {x: [1, 2, 3], y: [1, 2, 3], mode: 'lines', name: 'a line'},
      {x: [3], y: [2], mode: 'markers+text', text: ['2.87'], textposition: 'middle right', showlegend: false,
       marker: {symbol: 'diamond'}},
      {x: [3], y: [2.02], mode: 'markers+text', text: ['2.24'], textposition: 'middle right', showlegend: false,
       marker: {symbol: 'diamond'}},
    ], {title: {text: long, x: 0.01, xanchor: 'left'}, height: 300, margin: {t: 30}, xaxis: {range: [1, 3]},
        annotations: [{x: 1, y: 0.5, xref: 'paper', yref: 'paper', text: 'a note past the right edge of the figure',
                       showarrow: false, xanchor: 'left'}]},
    {responsive: true});
}"""


PLANT_PHONE_JS = """() => {
  const div = document.createElement('div');
  div.id = 'fig-planted-phone';
  document.querySelector('article').prepend(div);
  // Whole and apart in the desktop column, too wide for a phone's: a 420 px title and two buttons side by side
  return Plotly.newPlot(div, [{x: [1, 2], y: [1, 2], mode: 'lines', name: 'a line'}],
    {title: {text: 'A title that fits a desktop column but not a phone', x: 0.01, xanchor: 'left', y: 0.86},
     height: 300, margin: {t: 80}, showlegend: false,
     updatemenus: [{type: 'buttons', direction: 'right', x: 0, xanchor: 'left', y: 1.25, yanchor: 'bottom',
                    buttons: [{label: 'the first state, with a long name', method: 'skip', args: []},
                              {label: 'the second state, named at length', method: 'skip', args: []}]}]},
    {responsive: true});
}"""


def test_the_phone_width_finds_what_the_desktop_column_does_not(site, open_page):
    """The same planted figure: whole at 1280 px, its title and a button clipped at 375 px."""
    visit = open_page(url_path(site, "en", figure_pages()[0]), viewport=VIEWPORTS["1280x800"])
    visit.page.evaluate(PLANT_PHONE_JS)
    assert legibility_problems(visit.page, ["fig-planted-phone"]) == []
    visit.page.set_viewport_size(VIEWPORTS[PHONE])
    settle(visit.page, ALL_SIZED_JS)
    problems = "\n".join(legibility_problems(visit.page, ["fig-planted-phone"]))
    assert "title 'A title that fits a desktop column but" in problems and "is clipped" in problems, problems
    assert "control 'the second state, named at length' is clipped" in problems, problems


def test_the_measurement_finds_a_planted_clip_an_overlap_a_title_under_the_toolbar_and_an_unnamed_marker(
    site, open_page
):
    visit = open_page(url_path(site, "en", figure_pages()[0]), viewport=VIEWPORTS["1280x800"])
    visit.page.evaluate(PLANT_JS)
    problems = "\n".join(legibility_problems(visit.page, ["fig-planted"]))
    assert "title 'A title long enough" in problems and "is under the toolbar" in problems, problems
    assert "mark label '2.87' and mark label '2.24' overlap" in problems, problems
    assert "mark label '2.87' is cut by the plot area's edge" in problems, problems
    assert "annotation 'a note past the right edge of the figure' is clipped: outside the figure by right" in problems
    assert "the diamond markers have no legend entry" in problems, problems


READ_NARROW_JS = """el => ({domain: el.layout.xaxis2.domain, narrow: el.layout.meta.narrow,
                    height: el.layout.height || el.getBoundingClientRect().height})"""


def test_a_figure_with_a_narrow_layout_gets_it_on_a_phone_and_its_own_back_on_a_desktop(site, open_page):
    """plotly-fit.js applies a builder's layout.meta.narrow below 640 px (ch 9: masks stacked), and undoes it above."""
    visit = open_page(url_path(site, "en", "09-choosing.md"), viewport=VIEWPORTS["1280x800"])
    page, div = visit.page, "fig-model-params"
    assert div in wait_drawn(page, [div])
    el = page.locator(f'[id="{div}"]')
    el.evaluate(REVEAL_JS)
    desktop = el.evaluate(READ_NARROW_JS)
    assert desktop["domain"] != [0, 1] and desktop["narrow"]["xaxis2.domain"] == [0, 1], desktop
    page.set_viewport_size(VIEWPORTS[PHONE])
    settle(page, ALL_SIZED_JS)
    phone = el.evaluate(READ_NARROW_JS)
    assert phone["domain"] == [0, 1] and phone["height"] >= desktop["narrow"]["height"], phone
    page.set_viewport_size(VIEWPORTS["1280x800"])
    settle(page, ALL_SIZED_JS)
    back = el.evaluate(READ_NARROW_JS)
    assert back["domain"] == desktop["domain"] and back["height"] < desktop["narrow"]["height"], back

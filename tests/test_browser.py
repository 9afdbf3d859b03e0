"""What a reader gets in a real browser: every page of both languages, served locally, in Debian's chromium (its
headless shell; tests/browser_util.py says why and what is checked in chromium itself).

Each page is visited once, and that visit checks everything a page owes a reader: it stays offline (no
request leaves the local server), logs no console error, renders its math, draws Chinese with a CJK font,
passes axe-core with no serious or critical violation (its drawn plots set aside, except on two zh pages that
draw every kind of figure; its colour rules in zh only), names every figure and gives every heatmap a table
that agrees with it, draws every figure, and lets a reader reach each figure's control. One figure of each kind
of control (slider, buttons or dropdown, and the method its steps call) answers a real click or drag, in zh:
tests/test_figure_controls.py checks every step of every control from the page's JSON, and tests/test_site.py
that the en figures are the zh ones with other words.
The visit that completes a language also checks that the table checks compared over 1000 cells in all.
A test per check plants the problem it looks for and proves the check catches it. Search must find
Chinese words, and screenshots of chapter 5 are written to tests/artifacts/ for a human to look at.
The session's site is the deploy build (tests/conftest.py), served here at / and at its sub-path.
"""

import json
import re
import struct
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from browser_util import (ALL_DRAWN_JS, CONTROL_ACTIVE_JS, DESKTOP, FIGURES_JS, MATH_PROBLEMS_JS, PHONE, REVEAL_JS,
                          SNAPSHOT_JS, CHROMIUM, fc_list, launch, serve, start_playwright)
from conftest import (LANGS, NEW_PLOT, REPO_URL, ROOT, SITE_URL, SUB_PATH, figure_controls, html_path, once_per_session,
                      page_figures, page_names, shared_dir)

SCREENSHOTS = ROOT / "tests" / "artifacts" / "screenshots"
HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
CJK_FAMILY = re.compile(r"CJK|Source Han|WenQuanYi|Droid Sans Fallback|PingFang|YaHei|Hiragino Sans GB", re.I)


# ---- fixtures: one server and one browser per session, a fresh offline context per test

@pytest.fixture(scope="session")
def base_url(site):
    with serve(site) as url:
        yield url


@pytest.fixture(scope="session")
def playwright():
    with start_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright):
    """The headless shell (tests/browser_util.py), for the checks."""
    shell = launch(playwright)
    yield shell
    shell.close()


@pytest.fixture(scope="session")
def chromium(playwright):
    """Chromium itself, for what only the whole browser shows; launched by the first test that needs it."""
    whole = launch(playwright, CHROMIUM)
    yield whole
    whole.close()


class Visit:
    """One page in a fresh context: everything it requested and every console error it logged."""

    def __init__(self, context, page, base_url):
        self.context, self.page, self.base_url = context, page, base_url
        self.requests, self.errors = [], []

    def is_local(self, url):
        return url.startswith(self.base_url) or urlsplit(url).scheme in ("data", "blob", "about")

    def foreign_requests(self):
        return sorted({u for u in self.requests if not self.is_local(u)})

    def console_errors(self):
        return list(self.errors)   # no allow-list: every console error fails the page


@pytest.fixture
def open_page(request, browser, base_url):
    """Return open(path, viewport, whole=False) -> Visit: the page loaded in a new context, in the headless shell
    (whole=True: in chromium); only the local server answers it (browser_util.LAUNCH_ARGS)."""
    contexts = []

    def open_(path, viewport=DESKTOP, whole=False):
        shown_in = request.getfixturevalue("chromium") if whole else browser   # chromium starts on first use
        context = shown_in.new_context(viewport=viewport, service_workers="block")
        contexts.append(context)
        page = context.new_page()
        visit = Visit(context, page, base_url)
        page.on("request", lambda r: visit.requests.append(r.url))
        page.on("console", lambda m: m.type == "error" and visit.errors.append(
            {"text": m.text, "url": (m.location or {}).get("url", "")}))
        page.on("pageerror", lambda e: visit.errors.append({"text": f"uncaught: {e}", "url": ""}))
        page.goto(base_url + path, wait_until="load")
        return visit

    yield open_
    for context in contexts:
        context.close()


def wait_until(page, condition, timeout=5):
    """Let the page run until condition() holds (something it has yet to report) or timeout seconds pass."""
    deadline = time.monotonic() + timeout
    while not condition() and time.monotonic() < deadline:
        page.wait_for_timeout(20)


def url_path(site, lang, name):
    """Return the site-relative URL path of a page ('' for the zh home)."""
    rel = html_path(site, lang, name).relative_to(site).parent.as_posix()
    return "" if rel == "." else rel + "/"


# ---- figures: drawn, and each one's control answers a real click or drag

def wait_drawn(page, ids, timeout=20):
    try:
        page.wait_for_function(ALL_DRAWN_JS, arg=ids, timeout=timeout * 1000)
    except Exception:
        pass
    return [f["id"] for f in page.evaluate(FIGURES_JS) if f["drawn"]]


def pick_control(fig):
    """Return (kind, index, target step) of the figure's first usable control, or None. A slider goes to the next
    step: a drag across several ticks would redraw the figure at each one, for nothing more to check."""
    for i, s in enumerate(fig["sliders"]):
        if s["visible"] and s["n"] >= 2:
            return "slider", i, s["active"] + 1 if s["active"] + 1 < s["n"] else s["active"] - 1
    for i, m in enumerate(fig["menus"]):
        if m["visible"] and m["n"] >= 2:
            return m["type"], i, m["n"] - 1 if m["active"] != m["n"] - 1 else 0
    return None


def centre(box):
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def operate(page, el, kind, index, target):
    """Move the control like a reader: drag the slider's grip onto a tick, or click a button / dropdown item."""
    if kind == "slider":
        group = el.locator(".slider-group").nth(index)
        grip = group.locator(".slider-grip-rect")
        grip.scroll_into_view_if_needed(timeout=5000)
        gx, gy = centre(grip.bounding_box())
        tx, _ = centre(group.locator(".slider-tick-rect").nth(target).bounding_box())
        page.mouse.move(gx, gy)
        page.mouse.down()
        page.mouse.move(tx, gy, steps=3)
        page.mouse.up()
    else:
        group = el.locator(".updatemenu-header-group").nth(index)
        if kind == "dropdown":
            group.locator(".updatemenu-header").click(timeout=5000)
            el.locator(".updatemenu-dropdown-button-group .updatemenu-dropdown-button").nth(target).click(timeout=5000)
        else:
            group.locator(".updatemenu-button").nth(target).click(timeout=5000)


# Keep the figure's snapshot on the element; later ask, in the page, whether the data/layout and the drawing moved.
REMEMBER_JS = f"el => {{ el.__primerBefore = ({SNAPSHOT_JS})(el); }}"
MOVED_JS = f"""el => {{ const now = ({SNAPSHOT_JS})(el), was = el.__primerBefore;
  return {{state: now.state !== was.state, svg: now.svg !== was.svg}}; }}"""
BOTH_MOVED_JS = f"el => {{ const m = ({MOVED_JS})(el); return m.state && m.svg; }}"


# The points a reader presses to use a control (a slider's grip, and its rail where the target tick is; a menu's
# header or button), each hit-tested in the page with the control scrolled to the middle of the window: the press
# lands on the control, or names what covers it. In the page, not as playwright's trial clicks: a third of the CPU.
REACH_JS = """(el, [kind, index, target]) => {
  const parts = [];
  if (kind === 'slider') {
    const group = el.querySelectorAll('.slider-group')[index];
    const tick = group.querySelectorAll('.slider-tick-rect')[target];
    parts.push(['grip', group.querySelector('.slider-grip-rect'), null]);
    parts.push([`rail at step ${target}`, group.querySelector('.slider-rail-touch-rect'), tick]);
  } else {
    const group = el.querySelectorAll('.updatemenu-header-group')[index];
    parts.push(kind === 'dropdown' ? ['header', group.querySelector('.updatemenu-header'), null]
                                   : [`button ${target}`, group.querySelectorAll('.updatemenu-button')[target], null]);
  }
  (parts[0][1] || el).scrollIntoView({block: 'center'});   // the control, not the figure: a tall one may not fit
  return parts.map(([what, part, at]) => {
    if (!part) return `${what}: not drawn`;
    const box = part.getBoundingClientRect(), x = at ? at.getBoundingClientRect() : box;
    const hit = document.elementFromPoint(x.x + x.width / 2, box.y + box.height / 2);
    const name = hit && hit.tagName.toLowerCase() + '.' + String(hit.className.baseVal ?? hit.className);
    return hit && (hit === part || part.contains(hit)) ? null : `${what}: a press there lands on ${name || 'nothing'}`;
  }).filter(p => p);
}"""


def reachable(page, fig):
    """Check, without operating it, that a reader could use the figure's first control: revealed and scrolled to,
    each point the reader would press lands on it (REACH_JS). Return a list of problems."""
    control = pick_control(fig)
    if control is None:
        return []
    el = page.locator(f'[id="{fig["id"]}"]')
    el.evaluate(REVEAL_JS)
    return [f"{fig['id']}: a reader cannot reach its {control[0]} #{control[1]}: {problem}"
            for problem in el.evaluate(REACH_JS, list(control))]


def exercise(page, fig, patience=5):
    """Operate one control of the figure; return a list of problems (empty if it visibly changed the figure)."""
    control = pick_control(fig)
    if control is None:
        return []
    kind, index, target = control
    el = page.locator(f'[id="{fig["id"]}"]')
    el.evaluate(REVEAL_JS)
    el.scroll_into_view_if_needed(timeout=5000)
    el.evaluate(REMEMBER_JS)
    try:
        operate(page, el, kind, index, target)
    except Exception as err:  # noqa: BLE001 - report which control could not be operated
        return [f"{fig['id']}: could not operate its {kind} #{index}: {str(err).splitlines()[0]}"]
    handle = el.element_handle()
    try:   # a live control redraws within a frame or two; wait up to `patience` seconds before calling it dead
        page.wait_for_function(BOTH_MOVED_JS, arg=handle, polling=50, timeout=patience * 1000)
    except Exception:  # noqa: BLE001 - a timeout: the checks below say what did not change
        pass
    moved = el.evaluate(MOVED_JS)
    active = page.evaluate(CONTROL_ACTIVE_JS, [handle, "slider" if kind == "slider" else "menu", index])
    problems = []
    if active != target:
        problems.append(f"{fig['id']}: {kind} #{index} should be at step {target} after the reader's input, is at {active}")
    if not moved["state"]:
        problems.append(f"{fig['id']}: {kind} #{index} step {target} changed neither the data nor the layout")
    if not moved["svg"]:
        problems.append(f"{fig['id']}: {kind} #{index} step {target} did not change what is drawn")
    return problems


# ---- fonts

def fonts_session(page):
    """Open a DevTools session on the page that can ask which fonts drew a node (detach it when done)."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    return cdp


def platform_fonts(cdp, selector):
    """Return [(family, glyph count)] that chromium really used to draw the first element matching selector."""
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    if not node:
        return None
    fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    return [(f["familyName"], f["glyphCount"]) for f in fonts]


PROBE_JS = """([selector, mark]) => {
  const own = el => [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join('');
  const el = [...document.querySelectorAll(selector)].find(e => /[\\u3400-\\u4dbf\\u4e00-\\u9fff]/.test(own(e)));
  if (!el) return null;
  el.setAttribute('data-cjk-probe', mark);
  return own(el);
}"""


# Where a zh page has Chinese of its own: the title must (a term in it is an <abbr>, its tooltip); the rest may.
CJK_PLACES = ("article h1, article h1 abbr", "article h2, article h2 abbr", "article p", ".md-header__topic .md-ellipsis",
              ".js-plotly-plot .main-svg text")


def page_cjk_problems(page):
    """Check every place of CJK_PLACES on the page, over one DevTools session."""
    cdp = fonts_session(page)
    try:
        return [p for i, selector in enumerate(CJK_PLACES) for p in cjk_problems(page, selector, required=i == 0, cdp=cdp)]
    finally:
        cdp.detach()


def cjk_problems(page, selector, required=True, cdp=None):
    """Check the Chinese characters of the first element (matching selector) with Chinese text of its own
    are drawn by a CJK font, not as boxes by a Latin one. Counts only the element's own text nodes, which
    are the ones CSS.getPlatformFontsForNode reports on."""
    mark = f"p{abs(hash(selector))}"
    text = page.evaluate(PROBE_JS, [selector, mark])
    if text is None:
        return [f"{selector}: no element with Chinese text"] if required else []
    han = len(HAN.findall(text))
    session = cdp or fonts_session(page)
    try:
        fonts = platform_fonts(session, f'[data-cjk-probe="{mark}"]') or []
    finally:
        if cdp is None:
            session.detach()
    cjk = [(f, n) for f, n in fonts if CJK_FAMILY.search(f)]
    problems = []
    if sum(n for _, n in cjk) < han:
        problems.append(f"{selector} {text.strip()[:40]!r}: {han} Chinese characters but CJK fonts drew "
                        f"{sum(n for _, n in cjk)} glyphs; fonts used: {fonts}")
    for family, _ in cjk:
        if family.startswith("Noto Sans CJK") and not family.endswith(" SC"):
            problems.append(f"{selector}: drawn with {family}, not the Simplified Chinese face (is <html lang> zh?)")
    return problems


# ---- accessibility: axe-core, and every figure named, every heatmap's numbers as a table

# Without its plots, axe takes the page with every figure's frame, controls and modebar buttons but not the drawn plot
# (plotly's .main-svg), which it gives back afterwards untouched. In a plot it finds nothing it could fail: it cannot
# rate the contrast of SVG text (it answers "incomplete") and only passes the inline styles. Yet the plots cost it
# about 1.3 s of CPU on a chapter, a third of its time. The pages of AXE_WITH_PLOTS are checked with them, in
# FIGURE_LANG.
AXE_RUN_JS = """async ([withPlots, skip]) => {
  const held = withPlots ? [] : [...document.querySelectorAll('.js-plotly-plot .main-svg')]
    .map(svg => [svg, svg.parentNode, svg.nextSibling]);
  held.forEach(([svg]) => svg.remove());
  let r;
  const rules = Object.fromEntries(skip.map(id => [id, {enabled: false}]));
  try { r = await axe.run(document, {resultTypes: ['violations'], rules}); }
  finally {   // the last first: a plot's next sibling may be a plot too
    held.reverse().forEach(([svg, parent, next]) => parent.insertBefore(svg, next));
  }
  return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical').map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: ' + (n.failureSummary || '').split('\\n').slice(1, 2).join(''))}));
}"""
AXE_WITH_PLOTS = ("03-attention.md", "12-sampling-pipeline.md")   # together: every kind of trace, shape, axis, control
# The rules that judge colours: what they read comes from the stylesheets both languages share, applied to the same
# kinds of element (tests/test_site.py). Some two fifths of axe's CPU on a chapter; run in FIGURE_LANG only.
STYLE_RULES = ("color-contrast", "link-in-text-block")


@pytest.fixture(scope="session")
def axe_js():
    from node_tools import node_modules
    return node_modules() / "axe-core" / "axe.min.js"


def axe_problems(page, axe_js, with_plots=True, skip=()):
    """Run axe-core on the page as it is (with_plots=False: its drawn plots aside; skip: rules left out); return its
    serious and critical violations, one text each."""
    page.add_script_tag(path=str(axe_js))
    return [f"axe: {v['impact']} {v['id']}: {v['help']}\n    " + "\n    ".join(v["nodes"])
            for v in page.evaluate(AXE_RUN_JS, [with_plots, list(skip)])]


FIGURE_NAMES_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(el => {
  const fig = el.closest('figure');
  return {id: el.id, name: fig ? (fig.getAttribute('aria-label') || '') : '',
          heatmap: el.data.some(t => t.type === 'heatmap'),
          table: !!document.querySelector('details.primer-figure-table[data-figure="' + el.id + '"]')};
})"""

# Open each figure's table, then compare every cell with the heatmap drawn there: the label printed on
# the cell if it has one (a formatted value, or -inf on a closed cell), else its z.
TABLE_CHECK_JS = """el => {
  const details = document.querySelector('details.primer-figure-table[data-figure="' + el.id + '"]');
  details.open = true;
  details.dispatchEvent(new Event('toggle'));
  const bad = [], labels = new Set();
  let cells = 0;
  for (const table of details.querySelectorAll('table')) {
    const traces = table.dataset.traces.split(',').map(Number).map(i => el.data[i]);
    [...table.tBodies[0].rows].forEach((row, r) => [...row.cells].slice(1).forEach((cell, c) => {
      const t = traces.find(t => t.z[r] && t.z[r][c] !== null && t.z[r][c] !== undefined);
      const text = cell.textContent;
      cells++;
      if (!t) { if (text !== '') bad.push(`${r},${c}: '${text}' where nothing is drawn`); return; }
      const z = t.z[r][c], num = Number(text.replace('%', ''));
      const label = Array.isArray(t.text) && t.text[r] ? String(t.text[r][c] || '') : '';
      if (label) {   // the figure prints a label on the cell (a value, or -inf on a closed cell): the same
        if (text !== label) bad.push(`${r},${c}: table says '${text}', the figure's cell says '${label}'`);
        if (!Number.isFinite(Number(label.replace('%', '')))) labels.add(text);
      } else if (Number.isFinite(num) && text.trim() !== '') {
        const scale = text.endsWith('%') ? 100 : 1, digits = (text.split('.')[1] || '').replace('%', '').length;
        if (Math.abs(num - z * scale) > 0.5 * 10 ** -digits * 1.0001 + 1e-9 && Math.abs(num - z) > 0.5 * 10 ** -digits * 1.0001 + 1e-9)
          bad.push(`${r},${c}: table says ${text}, the figure's z is ${z}`);
      } else labels.add(text);
    }));
  }
  return {bad: bad.slice(0, 5), labels: [...labels], cells};
}"""


def figure_table_problems(page, record):
    """Check every figure has a name and every heatmap a table that agrees with it, cell by cell; add the cells
    checked and the non-numeric labels seen to record. Opens the tables: run it before operating any control."""
    problems = []
    for fig in page.evaluate(FIGURE_NAMES_JS):
        if len(fig["name"]) < 8:
            problems.append(f"{fig['id']}: no accessible name ({fig['name']!r})")
        if fig["heatmap"] != fig["table"]:
            problems.append(f"{fig['id']}: heatmap={fig['heatmap']} but table={fig['table']}")
        if fig["heatmap"] and fig["table"]:
            out = page.locator(f'[id="{fig["id"]}"]').evaluate(TABLE_CHECK_JS)
            record["cells"] += out["cells"]
            record["labels"] = sorted(set(record["labels"]) | set(out["labels"]))
            problems += [f"{fig['id']}: {b}" for b in out["bad"]]
            if not out["cells"]:
                problems.append(f"{fig['id']}: the table is empty")
    return problems


# ---- every page of both languages, one visit each

VISIT = "test_page_is_offline_quiet_accessible_and_its_figures_are_tabled_drawn_and_respond"
# Both languages draw the same figures with the same controls, only their words differ (tests/test_site.py). So axe
# sees the plots of AXE_WITH_PLOTS drawn, and runs its STYLE_RULES, in one language; and in that language the first
# figure of each kind of control is operated (a redraw costs about 0.6 s of CPU). Every other control is reached,
# and its steps are checked from the page's JSON (tests/test_figure_controls.py).
FIGURE_LANG = "zh"


def control_kind(layout):
    """Return the kind of control pick_control() operates on a figure, from its layout: (type, the methods its steps
    call), or None."""
    for kind, _index, control, steps in figure_controls(layout):   # sliders first, as pick_control() takes them
        if control.get("visible", True) and len(steps) >= 2:
            return kind, tuple(sorted({step.get("method") for step in steps}))
    return None


def operated_figures(site):
    """Return {figure id: kind}: the first figure, in page order, of each kind of control on the FIGURE_LANG pages."""
    def read():
        first = {}
        for name in page_names():
            for div, (_data, layout, _config) in page_figures(html_path(site, FIGURE_LANG, name).read_text(
                    encoding="utf-8")).items():
                kind = control_kind(layout)
                if kind and kind not in first:
                    first[kind] = div
        return {div: list(kind) for kind, div in first.items()}
    return once_per_session("operated figures", read)


def record_path(lang, name):
    """Where the visit of one page leaves what its figure-table check saw, for the cross-page check."""
    return shared_dir() / "figure-tables" / f"{lang}--{name.replace('/', '--')}.json"


def cross_page_table_problems(request, lang):
    """Across all pages of a language, the table check must have compared more than 1000 cells and met closed
    cells labelled -inf, or it checks next to nothing. Judged by the visit that completes the language (the
    visits leave records in the session's shared directory, from any pytest-xdist worker); [] before that, and
    when this run visits only some of the pages."""
    names = {item.callspec.params["name"] for item in request.session.items
             if getattr(item, "originalname", None) == VISIT and item.callspec.params["lang"] == lang}
    if names != set(page_names()) or not all(record_path(lang, n).exists() for n in names):
        return []
    return judge_table_records(lang, [json.loads(record_path(lang, n).read_text(encoding="utf-8")) for n in names])


def judge_table_records(lang, records):
    checked, labels = sum(r["cells"] for r in records), set().union(*(r["labels"] for r in records))
    if checked > 1000 and "−∞" in labels:
        return []
    return [f"across the {lang} pages the figure-table check compared {checked} cells (must be > 1000) and met the "
            f"labels {sorted(labels)} (must include −∞)"]


@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("lang", LANGS)
def test_page_is_offline_quiet_accessible_and_its_figures_are_tabled_drawn_and_respond(
        request, site, open_page, axe_js, lang, name):
    html = html_path(site, lang, name).read_text(encoding="utf-8")
    expected = NEW_PLOT.findall(html)
    visit = open_page(url_path(site, lang, name))
    page = visit.page
    drawn = wait_drawn(page, expected)
    figures = page.evaluate(FIGURES_JS)
    problems = [f"figure {i} never drew" for i in expected if i not in drawn]
    problems += [f"{f['id']} has a fig-* id but is not a plotly figure" for f in figures if not f["plotly"]]
    problems += [f"math {m}" for m in page.evaluate(MATH_PROBLEMS_JS)]
    if lang == "zh":
        problems += page_cjk_problems(page)
    # The page as loaded: axe, then the tables (which open), then the controls (which change the figures).
    problems += axe_problems(page, axe_js, with_plots=lang == FIGURE_LANG and name in AXE_WITH_PLOTS,
                             skip=() if lang == FIGURE_LANG else STYLE_RULES)
    record = {"cells": 0, "labels": []}
    problems += figure_table_problems(page, record)
    path = record_path(lang, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.with_suffix(".tmp").write_text(json.dumps(record), encoding="utf-8")
    path.with_suffix(".tmp").replace(path)
    operated = operated_figures(site) if lang == FIGURE_LANG else {}
    for fig in figures:
        if fig["drawn"]:
            problems += exercise(page, fig) if fig["id"] in operated else reachable(page, fig)
    page.wait_for_timeout(100)   # let late console messages arrive
    problems += [f"request to another host: {u}" for u in visit.foreign_requests()]
    problems += [f"console error: {e['text']} ({e['url']})" for e in visit.console_errors()]
    problems += cross_page_table_problems(request, lang)
    assert not problems, f"{lang}/{name}:\n  " + "\n  ".join(problems)


def test_the_cross_page_table_check_fails_on_too_few_cells_or_no_closed_cell():
    assert judge_table_records("zh", [{"cells": 700, "labels": ["−∞"]}, {"cells": 400, "labels": ["✓"]}]) == []
    assert judge_table_records("zh", [{"cells": 700, "labels": ["−∞"]}, {"cells": 300, "labels": []}])
    assert judge_table_records("en", [{"cells": 5000, "labels": ["✓", "●"]}])


def test_a_figure_of_each_kind_of_control_the_site_has_is_operated(site):
    """The visits operate operated_figures() only: one per kind of control, every kind the pages have."""
    operated = operated_figures(site)
    kinds = {control_kind(layout) for name in page_names() for lang in LANGS
             for _data, layout, _config in page_figures(html_path(site, lang, name).read_text(encoding="utf-8")).values()}
    assert {(control, tuple(methods)) for control, methods in operated.values()} == kinds - {None}
    assert {control for control, _methods in operated.values()} == {"slider", "buttons", "dropdown"}
    assert any("restyle" in methods for _control, methods in operated.values())   # x/y restyled, not only shown


def test_the_checks_catch_a_foreign_request_a_console_error_a_dead_control_and_a_covered_one(open_page, base_url):
    """The per-page checks can fail: each kind of problem is planted on a local page and must be caught."""
    visit = open_page("")
    assert visit.page.evaluate(MATH_PROBLEMS_JS) == []
    page = visit.page
    failed = []
    page.on("requestfailed", lambda r: failed.append((r.url, r.failure)))
    page.evaluate("""() => { ['https://example.com/tracker.js', 'http://192.0.2.1/pixel.gif'].forEach(
                                 u => fetch(u).catch(() => {}));
                            console.error('planted error'); }""")
    page.add_script_tag(url=base_url + "assets/vendor/plotly/plotly-primer.min.js")
    page.evaluate("""() => Promise.all([['fig-live', false], ['fig-dead', true]].map(([id, dead]) => {
        const div = document.createElement('div');
        div.id = id;
        div.style.height = '300px';
        document.querySelector('article').appendChild(div);
        const steps = [0, 1].map(i => ({label: String(i), method: 'update',
                                        args: [{visible: dead ? [true, true] : [i === 0, i === 1]}]}));
        return Plotly.newPlot(div, [{y: [1, 2], visible: true}, {y: [2, 1], visible: dead}], {sliders: [{active: 0, steps}]});
    }))""")
    page.evaluate("""() => { const m = document.createElement('span'); m.className = 'arithmatex';
                            m.textContent = '\\\\(x^2\\\\)'; document.querySelector('article').appendChild(m); }""")
    wait_until(page, lambda: len(failed) == 2 and visit.console_errors())
    assert [m.startswith("not rendered") for m in page.evaluate(MATH_PROBLEMS_JS)] == [True]
    assert visit.foreign_requests() == ["http://192.0.2.1/pixel.gif", "https://example.com/tracker.js"]
    # neither left the machine: a host name and a bare address both went to the closed proxy (LAUNCH_ARGS)
    assert {failure for _url, failure in failed} == {"net::ERR_PROXY_CONNECTION_FAILED"}, failed
    assert "planted error" in [e["text"] for e in visit.console_errors()]
    figures = {f["id"]: f for f in page.evaluate(FIGURES_JS)}
    assert figures["fig-live"]["drawn"] and figures["fig-dead"]["drawn"]
    assert reachable(page, figures["fig-live"]) == []
    assert exercise(page, figures["fig-live"]) == []
    dead = exercise(page, figures["fig-dead"], patience=1)
    assert any("changed neither" in p for p in dead) and any("did not change what is drawn" in p for p in dead), dead
    page.evaluate("""() => { const box = document.getElementById('fig-live').getBoundingClientRect();
        const cover = document.createElement('div');   // a box over the figure takes every press
        cover.style.cssText = `position: absolute; left: ${box.left + scrollX}px; top: ${box.top + scrollY}px;
                               width: ${box.width}px; height: ${box.height}px; z-index: 10`;
        document.body.appendChild(cover); }""")
    covered = reachable(page, figures["fig-live"])
    assert len(covered) == 2 and all("cannot reach its slider #0" in p and "lands on div" in p for p in covered), covered


def test_axe_catches_planted_violations_and_the_style_rules_only_where_they_run(site, open_page, axe_js):
    """An image without alt text, faint text and a link told from its sentence by colour alone are caught; left out
    as in the other language's visits, the style rules catch nothing, while image-alt still does."""
    page = open_page("").page
    page.evaluate("""() => { const i = document.createElement('img'); i.src = 'data:,';
        const faint = document.createElement('p'); faint.textContent = 'faint'; faint.style.color = '#eee';
        const linked = document.createElement('p'); linked.style.color = '#333';
        linked.innerHTML = 'Read <a href="#x" style="color: #3a3a3a; text-decoration: none">this link</a> in a sentence.';
        document.querySelector('article').append(i, faint, linked); }""")
    found = lambda problems: {p.split(":")[1].split()[-1] for p in problems}   # noqa: E731 - the rule ids
    assert found(axe_problems(page, axe_js)) == {"image-alt", *STYLE_RULES}
    assert found(axe_problems(page, axe_js, skip=STYLE_RULES)) == {"image-alt"}


def test_axe_without_the_plots_still_sees_each_figure_and_gives_its_plot_back(site, open_page, axe_js):
    """Set aside, a figure's frame is still checked (a planted image with no alt text is caught), and every drawn
    plot is back in its place afterwards, node for node."""
    name = "13-today.md"   # one figure, and little else for axe to read
    page = open_page(url_path(site, "en", name)).page
    expected = NEW_PLOT.findall(html_path(site, "en", name).read_text(encoding="utf-8"))
    assert expected and set(expected) <= set(wait_drawn(page, expected))
    page.evaluate("""() => { const i = document.createElement('img'); i.src = 'data:,';
                            document.querySelector('.js-plotly-plot').closest('figure').appendChild(i);
                            window.__plots = [...document.querySelectorAll('.js-plotly-plot .main-svg')]; }""")
    before = page.evaluate("() => window.__plots.map(s => s.outerHTML)")
    assert any(" image-alt: " in p for p in axe_problems(page, axe_js, with_plots=False, skip=STYLE_RULES))
    after = page.evaluate("""() => { const now = [...document.querySelectorAll('.js-plotly-plot .main-svg')];
      const same = now.length === window.__plots.length && now.every((s, i) => s === window.__plots[i]);
      return same ? now.map(s => s.outerHTML) : null; }""")   # the same nodes, in the same places, unchanged
    assert after == before


def test_the_pages_axe_checks_with_their_plots_draw_every_kind_of_figure_the_site_has(site):
    """Every trace, shape, axis and control type that any page's figures use, and a slider, are on AXE_WITH_PLOTS."""
    def kinds(lang, name):
        html = html_path(site, lang, name).read_text(encoding="utf-8")
        return set(re.findall(r'"type":"(\w+)"', html)) | ({"slider"} if '"sliders":[{' in html else set())
    used = set().union(*(kinds(lang, name) for lang in LANGS for name in page_names()))
    assert {"heatmap", "bar", "scatter", "slider", "buttons", "dropdown"} <= used   # the reading sees the figures
    checked = set().union(*(kinds(FIGURE_LANG, name) for name in AXE_WITH_PLOTS))
    assert used <= checked, sorted(used - checked)


def test_the_table_check_catches_a_cell_that_disagrees_with_its_figure(site, open_page):
    """A table whose filling goes wrong in one cell (a numbered one, then a labelled one) is caught."""
    name = "13-today.md"   # one figure, whose tables hold numbers and closed cells
    page = open_page(url_path(site, "zh", name)).page
    expected = NEW_PLOT.findall(html_path(site, "zh", name).read_text(encoding="utf-8"))
    assert set(expected) <= set(wait_drawn(page, expected))
    record = {"cells": 0, "labels": []}
    assert figure_table_problems(page, record) == [] and "−∞" in record["labels"]
    # After the page's own toggle handler fills the table, spoil one cell: a number, then a -inf label.
    # A number is checked against the cell's label if the figure prints one there, else against its z.
    for kind, wrong, said in (("number", "12345", ("the figure's z is", "the figure's cell says")),
                              ("label", "open", ("the figure's cell says '−∞'",))):
        planted = page.evaluate("""([kind, wrong]) => {
          for (const d of document.querySelectorAll('details.primer-figure-table')) {
            const cells = [...d.querySelectorAll('tbody td')];
            const fits = c => kind === 'label' ? c.textContent === '−∞' : Number.isFinite(Number(c.textContent)) && c.textContent !== '';
            if (!cells.some(fits)) continue;
            d.addEventListener('toggle', () => { const c = [...d.querySelectorAll('tbody td')].find(fits); if (c) c.textContent = wrong; });
            return d.dataset.figure;
          }
          return null;
        }""", [kind, wrong])
        assert planted, f"no table on zh/{name} has a {kind} cell to spoil"
        problems = figure_table_problems(page, {"cells": 0, "labels": []})
        assert any(p.startswith(planted + ":") and "table says" in p and wrong in p and any(w in p for w in said)
                   for p in problems), (kind, problems)


def test_pages_carry_no_hreflang_alternates(read_page):
    # Material would fetch <alternate>/sitemap.xml for each one, a 404 on every page.
    for lang in LANGS:
        assert 'rel="alternate"' not in read_page(lang, "05-mask.md")
        assert 'hreflang="en"' in read_page("zh", "05-mask.md")  # the language switcher is still there


@pytest.mark.parametrize("which", ["browser", "chromium"])
def test_a_new_context_opens_only_its_page(request, which):
    """LAUNCH_ARGS turn off the WebUI omnibox popups that headless chromium would otherwise preload in every window
    (a renderer's CPU per page visit); if a chromium renames those features, this says so."""
    browser = request.getfixturevalue(which)
    context = browser.new_context()
    try:
        context.new_page().goto("about:blank")
        targets = browser.new_browser_cdp_session().send("Target.getTargets")["targetInfos"]
        assert [t["url"] for t in targets if t["type"] != "page"] == []
    finally:
        context.close()


def test_a_cjk_font_is_installed():
    families = fc_list()
    assert re.search(r"Noto Sans CJK SC", families), (
        "no Noto Sans CJK SC font: Chinese would be drawn as boxes (`make system-deps`, "
        "or `sudo apt-get install fonts-noto-cjk`)")


def test_chromium_draws_chinese_with_the_simplified_chinese_face_where_the_per_page_check_looks(site, open_page):
    """In chromium itself, under this machine's own locale (not the headless shell's zh-cn fontconfig default), a zh
    page draws its Chinese with the Simplified Chinese face; and the per-page CJK check is not vacuous: a one-figure
    chapter has Chinese in all the places it looks."""
    name = "02-seq2seq.md"
    visit = open_page(url_path(site, "zh", name), whole=True)
    page = visit.page
    wait_drawn(page, NEW_PLOT.findall(html_path(site, "zh", name).read_text(encoding="utf-8")))
    for selector in CJK_PLACES:
        assert page.evaluate(PROBE_JS, [selector, "x"]), f"no Chinese text in {selector} on zh/{name}"
    assert page_cjk_problems(page) == []
    page.evaluate("document.documentElement.lang = 'ja'")   # planted: the Japanese forms must be caught
    planted = cjk_problems(page, CJK_PLACES[0])
    assert planted and "not the Simplified Chinese face" in planted[0], planted


# ---- search, as a reader types it

def search(page, query):
    """Type query into Material's search box; return the result links (hrefs, in rank order)."""
    box = page.locator("input.md-search__input")
    links = page.locator(".md-search-result__item > a.md-search-result__link")
    box.click()
    box.fill("")
    box.press("Backspace")   # a key released: Material reads the empty box and takes an earlier query's results away
    links.first.wait_for(state="detached", timeout=10_000)
    if query.isascii():
        box.press_sequentially(query, delay=20)
    else:
        # A Chinese reader types through an input method: the characters arrive as one committed string,
        # then the key that committed the candidate is released (Material reads the box on keyup).
        page.keyboard.insert_text(query)
        page.keyboard.up("Space")
    try:
        links.first.wait_for(timeout=10_000)   # the search worker loads the index first
    except Exception:
        meta = page.locator(".md-search-result__meta").text_content()
        pytest.fail(f"search for {query!r} showed no result; the result line says {meta!r}")
    return [a.get_attribute("href") for a in links.all()]


def absolute(base_url, href):
    from urllib.parse import urljoin
    return urljoin(base_url, href)


def test_chinese_search_from_the_zh_home_finds_zh_pages(site, open_page, base_url):
    visit = open_page("")
    for query in ("掩码", "对角线"):   # one after the other in the same box, as a reader searches again
        hrefs = [absolute(visit.page.url, h) for h in search(visit.page, query)]
        zh = [h for h in hrefs if not h.startswith(base_url + "en/")]
        assert zh, f"{query!r} found only English pages: {hrefs}"
        assert hrefs[0] in zh, f"{query!r}: the first result is not a Chinese page: {hrefs}"


def test_english_search_from_an_en_page_ranks_en_pages_first(site, open_page, base_url):
    visit = open_page(url_path(site, "en", "index.md"))
    hrefs = [absolute(visit.page.url, h) for h in search(visit.page, "mask")]
    ranks = {lang: [i for i, h in enumerate(hrefs) if h.startswith(base_url + "en/") == (lang == "en")]
             for lang in LANGS}
    assert ranks["en"] and ranks["en"][0] == 0, f"the first result for 'mask' is not an English page: {hrefs}"
    if ranks["zh"]:
        assert sum(ranks["en"]) / len(ranks["en"]) < sum(ranks["zh"]) / len(ranks["zh"]), hrefs


def test_the_search_index_loads_only_when_the_reader_starts_to_search(site, open_page):
    """A page load fetches no search index, search worker or lunr language file; Material's '/' key does,
    and a query typed while the index is still on its way shows its results once it arrives."""
    visit = open_page("")
    page = visit.page
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(500)
    searchy = lambda: [u for u in visit.requests if re.search(r"search_index|/workers/search\.|/lunr/", u)]  # noqa: E731
    assert searchy() == [], f"fetched before any search: {searchy()}"
    held = []                                  # the index request, answered only after the reader has typed
    page.route("**/search/search_index.json", lambda route: held.append(route))
    page.keyboard.press("/")                   # Material's shortcut: focus the search box
    for _ in range(50):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "pressing / to search did not request search/search_index.json"
    page.keyboard.insert_text("掩码")
    page.keyboard.up("Space")
    page.wait_for_timeout(300)
    links = page.locator(".md-search-result__item > a.md-search-result__link")
    assert links.count() == 0                  # no index yet, no results yet
    held[0].continue_()
    links.first.wait_for(timeout=10_000)
    assert any("/lunr/" in u for u in searchy()), "the worker's language files were not seen: the first check proves nothing"


# ---- screenshots for a human, at desktop and phone widths

def png_size(path):
    head = Path(path).read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    return struct.unpack(">II", head[16:24])


def take_screenshots(page, lang, expected):
    """Screenshot the loaded chapter 5 at desktop and phone width, full page; each must be the whole chapter, drawn,
    and no wider than the window."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for viewport in (DESKTOP, PHONE):
        page.set_viewport_size(viewport)
        page.wait_for_timeout(300)          # Material and the responsive figures re-lay out on resize
        assert set(expected) <= set(wait_drawn(page, expected))
        page.evaluate("document.fonts.ready")
        out = SCREENSHOTS / f"05-mask-{lang}-{viewport['width']}.png"
        out.unlink(missing_ok=True)
        page.screenshot(path=str(out), full_page=True)
        width, height = png_size(out)
        assert width == viewport["width"], (out, width)
        assert height > 3 * viewport["height"], f"{out}: a full chapter is several screens tall"
        assert out.stat().st_size > 50_000, f"{out} is suspiciously small (blank page?)"
        overflow = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{lang}/05-mask scrolls sideways by {overflow}px at {viewport['width']}px wide"


# ---- dark mode: figures follow Material's palette toggle, no reload

THEME_JS = """() => { const ctx = document.createElement('canvas').getContext('2d');
  const norm = c => { ctx.fillStyle = '#000'; ctx.fillStyle = c; return ctx.fillStyle; };   // one spelling per colour
  return [...document.querySelectorAll('.js-plotly-plot')].map(el => ({
  id: el.id, scheme: el.dataset.scheme || null,
  font: el._fullLayout.font.color,
  grid: Object.keys(el._fullLayout).filter(k => /^[xy]axis\\d*$/.test(k)).map(k => el._fullLayout[k].gridcolor),
  scales: el.data.filter(t => t.type === 'heatmap').map(t => JSON.stringify(
    Array.isArray(t.colorscale) ? t.colorscale.map(s => [s[0], norm(s[1])]) : t.colorscale)),
  annotations: (el._fullLayout.annotations || []).map(a => norm(a.font.color)),
  texts: [...el.querySelectorAll('.main-svg .xtick text, .main-svg .ytick text, .main-svg .annotation-text')]
    .slice(0, 40).map(t => getComputedStyle(t).fill),
})); }"""
PAGE_BG_JS = "() => getComputedStyle(document.body).backgroundColor"


def rgb_of(css):
    """Return (r, g, b, a) of a CSS colour as chromium reports it: rgb(...), rgba(...) or #rrggbb."""
    if css.startswith("#"):
        return tuple(int(css[i:i + 2], 16) for i in (1, 3, 5)) + (1.0,)
    nums = [float(v) for v in re.findall(r"[\d.]+", css)]
    return tuple(nums[:3]) + ((nums[3],) if len(nums) > 3 else (1.0,))


def over(fg, bg):
    """Return the opaque colour of fg drawn over the opaque bg."""
    a = fg[3]
    return tuple(a * f + (1 - a) * b for f, b in zip(fg[:3], bg[:3])) + (1.0,)


def contrast(a, b):
    """Return the WCAG contrast ratio of two opaque colours."""
    def lum(c):
        lin = [(v / 255) / 12.92 if v / 255 <= 0.04045 else ((v / 255 + 0.055) / 1.055) ** 2.4 for v in c[:3]]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def toggle_palette(page):
    """Click Material's palette toggle in the header, as a reader does; return the new scheme."""
    before = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    page.locator("form[data-md-component=palette] label:visible").first.click()
    page.wait_for_function("s => document.body.getAttribute('data-md-color-scheme') !== s", arg=before)
    scheme = page.evaluate("document.body.getAttribute('data-md-color-scheme')")
    page.wait_for_function("s => [...document.querySelectorAll('.js-plotly-plot')].every(el => el.dataset.scheme === s)",
                           arg=scheme, timeout=10_000)
    page.wait_for_timeout(300)
    return scheme


def test_figures_follow_the_dark_palette_without_a_reload(site, open_page):
    """In FIGURE_LANG only: both languages draw the same figures but for their words (tests/test_site.py), themed by
    the same script."""
    name, lang = "05-mask.md", FIGURE_LANG
    visit = open_page(url_path(site, lang, name))
    page = visit.page
    assert set(wait_drawn(page, NEW_PLOT.findall(html_path(site, lang, name).read_text(encoding="utf-8"))))
    page.evaluate("window.__notReloaded = true")
    light = {f["id"]: f for f in page.evaluate(THEME_JS)}
    assert toggle_palette(page) == "slate"
    assert page.evaluate("window.__notReloaded === true"), "the palette toggle reloaded the page"
    dark = {f["id"]: f for f in page.evaluate(THEME_JS)}
    bg = rgb_of(page.evaluate(PAGE_BG_JS))
    assert contrast(bg, (255, 255, 255, 1)) > 10, f"slate background {bg} is not dark"
    problems = []
    for fid, d in dark.items():
        l = light[fid]
        if d["font"] == l["font"]:
            problems.append(f"{fid}: font colour stayed {l['font']}")
        if d["grid"] and d["grid"] == l["grid"]:
            problems.append(f"{fid}: grid colours stayed {l['grid']}")
        for before, after in zip(l["scales"], d["scales"]):
            if before == after:
                problems.append(f"{fid}: a heatmap kept its light colour scale {before[:60]}")
        for fill in d["texts"]:
            ratio = contrast(over(rgb_of(fill), bg), bg)
            if ratio < 4.5:
                problems.append(f"{fid}: text {fill} on the slate background has contrast {ratio:.1f} < 4.5")
    assert light and not problems, f"{lang}/{name}:\n  " + "\n  ".join(problems)
    assert toggle_palette(page) == "default"
    back = {f["id"]: f for f in page.evaluate(THEME_JS)}
    for fid, l in light.items():
        assert back[fid]["scales"] == l["scales"] and back[fid]["annotations"] == l["annotations"], fid
    # A reader who chose dark opens the page again: each figure's first draw is already dark, never redrawn.
    assert toggle_palette(page) == "slate"
    page.add_init_script(COUNT_REDRAWS_JS)
    page.reload(wait_until="load")
    assert set(wait_drawn(page, list(dark)))
    reopened = {f["id"]: f for f in page.evaluate(THEME_JS)}
    assert page.evaluate("window.__redraws") == 0
    for fid, d in dark.items():
        assert {k: reopened[fid][k] for k in ("scheme", "font", "grid", "scales", "annotations")} == \
               {k: d[k] for k in ("scheme", "font", "grid", "scales", "annotations")}, fid
    assert not visit.console_errors()


# Count Plotly.react calls (a redraw of a drawn figure) from the moment plotly.js defines window.Plotly.
COUNT_REDRAWS_JS = """(() => { let plotly; window.__redraws = 0;
  Object.defineProperty(window, 'Plotly', {configurable: true, get: () => plotly, set: p => {
    plotly = p; const react = p.react; p.react = function () { window.__redraws++; return react.apply(this, arguments); }; }});
})()"""


# ---- print: a chapter from chromium's print, as PDF and as images for a person to look at

PRINTS = ROOT / "tests" / "artifacts" / "print"
PRINT_LAYOUT_JS = """() => {
  const hidden = sel => [...document.querySelectorAll(sel)].every(e => getComputedStyle(e).display === 'none' || !e.offsetParent);
  const figs = [...document.querySelectorAll('article .js-plotly-plot')];
  const article = document.querySelector('article').getBoundingClientRect();
  const fixed = [...document.querySelectorAll('body *')].filter(e => {
    const s = getComputedStyle(e); return (s.position === 'fixed' || s.position === 'sticky') && s.display !== 'none'
      && s.visibility !== 'hidden' && e.getBoundingClientRect().width * e.getBoundingClientRect().height > 0; });
  return {nav: hidden('.md-header, .md-tabs, .md-sidebar, .md-footer, .md-top'),
          figures: figs.length, drawn: figs.filter(f => f.getBoundingClientRect().height > 100 && f.querySelector('.main-svg')).length,
          tables: [...document.querySelectorAll('article table')].filter(t => t.offsetParent && !t.closest('details')).length,
          fixed: fixed.map(e => e.className || e.tagName), width: article.width};
}"""


def print_chapter(page, lang, expected):
    """Print the loaded chapter 5 as chromium does (PDF, and its first pages as images): its figures drawn, its tables
    shown, no navigation."""
    import shutil
    import subprocess

    page.emulate_media(media="print")
    page.wait_for_timeout(500)
    layout = page.evaluate(PRINT_LAYOUT_JS)
    assert layout["nav"], "navigation is printed"
    assert layout["drawn"] == layout["figures"] == len(expected), layout
    assert layout["tables"] >= 1 and not layout["fixed"], layout
    PRINTS.mkdir(parents=True, exist_ok=True)
    pdf = PRINTS / f"05-mask-{lang}.pdf"
    pdf.write_bytes(page.pdf(format="A4", print_background=True))
    assert pdf.stat().st_size > 50_000
    title = page.locator("article h1").text_content().strip().rstrip("¶").strip()
    exe = shutil.which("pdftoppm")
    assert exe, "pdftoppm is missing (`make system-deps`, or `sudo apt-get install poppler-utils`)"
    text = subprocess.run([shutil.which("pdftotext"), "-layout", str(pdf), "-"], capture_output=True, text=True).stdout
    assert title.split()[0] in text, f"the chapter title {title!r} is not in the PDF"
    nav = page.locator(".md-nav__link").all_text_contents()
    assert not any(t.strip() and t.strip() in text.split("\n")[0] for t in nav[:3]), "the PDF starts with navigation"
    for old in PRINTS.glob(f"05-mask-{lang}-*.png"):
        old.unlink()
    subprocess.run([exe, "-png", "-r", "50", "-f", "1", "-l", "4", str(pdf), str(PRINTS / f"05-mask-{lang}")], check=True)
    from PIL import Image, ImageStat
    pngs = sorted(PRINTS.glob(f"05-mask-{lang}-*.png"))
    assert len(pngs) >= 2, pngs
    for png in pngs:
        img = Image.open(png).convert("L")
        inked = sum(n for v, n in enumerate(img.histogram()) if v < 200) / (img.width * img.height)
        assert inked > 0.01 and ImageStat.Stat(img).stddev[0] > 10, f"{png} looks blank ({inked:.3%} inked)"


@pytest.mark.parametrize("lang", LANGS)
def test_chapter_5_at_desktop_and_phone_width_and_in_print(site, open_page, lang):
    """One load of the model chapter, for a person to look at (tests/artifacts): screenshots, then the printed chapter."""
    name = "05-mask.md"
    assert html_path(site, lang, name).exists(), "chapter 5 (05-mask) is the model chapter; it must be built"
    visit = open_page(url_path(site, lang, name), viewport=DESKTOP)
    page = visit.page
    expected = NEW_PLOT.findall(html_path(site, lang, name).read_text(encoding="utf-8"))
    take_screenshots(page, lang, expected)
    page.set_viewport_size(DESKTOP)   # print as from a desktop window, as a reader would
    page.wait_for_timeout(300)
    assert set(expected) <= set(wait_drawn(page, expected))
    print_chapter(page, lang, expected)
    assert not visit.foreign_requests() and not visit.console_errors()


# ---- the site under a sub-path, with a deploy's site_url and repo_url

def test_the_site_works_under_a_sub_path(site, site_root, browser):
    """The session's build is the deploy build (tests/conftest.py): served from site_root it lives at /primer/sub/."""
    import gzip

    site_url, repo, out = SITE_URL, REPO_URL, site
    assert site_root / SUB_PATH == out and site_url.endswith("/" + SUB_PATH + "/")
    page_html = (out / "05-mask" / "index.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{site_url}05-mask/">' in page_html
    assert f'href="{repo}/edit/main/docs/zh/05-mask.md"' in page_html
    locs = re.findall(r"<loc>([^<]+)</loc>", gzip.decompress((out / "sitemap.xml.gz").read_bytes()).decode())
    assert locs and all(u.startswith(site_url) for u in locs) and f"{site_url}en/05-mask/" in locs
    rooted = {}
    for f in out.rglob("*.html"):
        text = f.read_text(encoding="utf-8")
        ok = f"/{SUB_PATH}/" if f.name == "404.html" else None   # the 404 page is served at any path
        bad = [u for u in re.findall(r'(?:href|src)="(/[^"]*)"', text) if not (ok and u.startswith(ok))]
        if bad:
            rooted[f.relative_to(out).as_posix()] = bad[:3]
    assert not rooted, f"root-absolute links break under a sub-path: {rooted}"
    light = "01-rnn"   # one figure: the browser part is about paths, not drawing
    light_html = (out / light / "index.html").read_text(encoding="utf-8")
    with serve(site_root) as root_url:
        base = root_url + SUB_PATH + "/"
        context = browser.new_context(viewport=DESKTOP, service_workers="block")
        try:
            page = context.new_page()
            failed = []
            page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
            context.route("**/*", lambda r: r.continue_() if r.request.url.startswith(root_url) else r.abort())
            page.goto(base + f"{light}/", wait_until="load")
            assert wait_drawn(page, NEW_PLOT.findall(light_html))
            page.locator(".md-header .md-select").first.hover()
            page.locator('.md-select__link[hreflang="en"]').first.click()
            page.wait_for_url(base + f"en/{light}/")
            page.goto(base + "en/", wait_until="load")   # and back to zh, from the en home (no figure to draw)
            page.locator(".md-header .md-select").first.hover()
            page.locator('.md-select__link[hreflang="zh"]').first.click()
            page.wait_for_url(base)
            assert not failed, failed
        finally:
            context.close()

"""Every page of both languages, the notebook pages included, as a reader's chromium shows it (tests/browser_util.py).

One visit a page checks what the page owes a reader: it stays offline and logs no console error, every figure draws
and is named, every heatmap's table agrees with it cell by cell, math is MathML, Chinese is drawn by a CJK font in
its Simplified Chinese face, and axe-core (every rule, plots drawn, tables open) finds no serious, critical or
landmark-unique violation. Each control can be reached where a reader presses it; in zh, the first figure of each
kind of control (slider, buttons, dropdown; the methods its steps call) is operated by a real drag or click and must
redraw. Every step of every control is checked from the page's JSON by tests/test_figure_controls.py, and
tests/test_site.py shows en draws what zh draws.
"""

import re

import pytest
from browser_util import MATH_PROBLEMS_JS, REVEAL_JS, axe_problems, url_path, wait_drawn
from site_reader import LANGS, NEW_PLOT, figure_controls, html_path, notebook_names, page_figures, page_names

pytestmark = pytest.mark.browser
OPERATED_LANG = "zh"


# ---- controls: reached where a reader presses, and one figure of each kind operated


def pick_control(layout):
    """Return (kind, index, target step) of the figure's first usable control, or None: a slider moves to its next
    tick, a menu to its last button (its first, if the last is active)."""
    for kind, index, control, steps in figure_controls(layout):
        if control.get("visible", True) and len(steps) >= 2:
            active, n = control.get("active", 0), len(steps)
            if kind == "slider":
                return kind, index, active + 1 if active + 1 < n else active - 1
            return kind, index, n - 1 if active != n - 1 else 0
    return None


def control_kind(layout):
    """Return what pick_control() operates on a figure: (kind, the methods its steps call), or None."""
    control = pick_control(layout)
    if control is None:
        return None
    steps = next(s for kind, i, _, s in figure_controls(layout) if (kind, i) == control[:2])
    return control[0], tuple(sorted({step.get("method") for step in steps}))


@pytest.fixture(scope="session")
def operated(site):
    """Return {figure id: kind}: the first figure, in page order, of each kind of control on the OPERATED_LANG pages."""
    first = {}
    for name in page_names():
        for div, (_data, layout, _config) in page_figures(
            html_path(site, OPERATED_LANG, name).read_text("utf-8")
        ).items():
            first.setdefault(control_kind(layout), div)
    first.pop(None, None)
    return {div: kind for kind, div in first.items()}


# The points a reader presses (a slider's grip, its rail where the target tick is; a menu's header or button), each
# hit-tested with the control scrolled to the middle of the window: the press lands on the control, or names what
# covers it.
REACH_JS = """(el, [kind, index, target]) => {
  const parts = [];
  if (kind === 'slider') {
    const group = el.querySelectorAll('.slider-group')[index];
    parts.push(['grip', group.querySelector('.slider-grip-rect'), null]);
    parts.push([`rail at step ${target}`, group.querySelector('.slider-rail-touch-rect'),
                group.querySelectorAll('.slider-tick-rect')[target]]);
  } else {
    const group = el.querySelectorAll('.updatemenu-header-group')[index];
    parts.push(kind === 'dropdown' ? ['header', group.querySelector('.updatemenu-header'), null]
                                   : [`button ${target}`, group.querySelectorAll('.updatemenu-button')[target], null]);
  }
  (parts[0][1] || el).scrollIntoView({block: 'center'});
  return parts.map(([what, part, at]) => {
    if (!part) return `${what}: not drawn`;
    const box = part.getBoundingClientRect(), x = at ? at.getBoundingClientRect() : box;
    const hit = document.elementFromPoint(x.x + x.width / 2, box.y + box.height / 2);
    const name = hit && hit.tagName.toLowerCase() + '.' + String(hit.className.baseVal ?? hit.className);
    return hit && (hit === part || part.contains(hit)) ? null : `${what}: a press there lands on ${name || 'nothing'}`;
  }).filter(p => p);
}"""

# What a control changes: the data and the layout (the controls aside), and the drawn SVG (controls and hover aside).
SNAPSHOT_JS = """el => {
  const layout = Object.assign({}, el.layout); delete layout.sliders; delete layout.updatemenus;
  const svg = [...el.querySelectorAll('.main-svg')].map(s => { const c = s.cloneNode(true);
    c.querySelectorAll('.slider-container, .updatemenu-container, .hoverlayer').forEach(x => x.remove());
    return c.innerHTML; }).join('');
  return {state: JSON.stringify([el.data, layout]), svg};
}"""
MOVED_JS = f"""(el, was) => {{ const now = ({SNAPSHOT_JS})(el);
  return {{state: now.state !== was.state, svg: now.svg !== was.svg}}; }}"""
ACTIVE_JS = """(el, [kind, index]) => kind === 'slider' ? (el.layout.sliders[index].active || 0)
                                                    : el.layout.updatemenus[index].active"""


def centre(box):
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def operate(page, el, kind, index, target):
    """Move the control as a reader does: drag the slider's grip onto a tick, or click a button or dropdown item."""
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
    elif kind == "dropdown":
        el.locator(".updatemenu-header-group").nth(index).locator(".updatemenu-header").click(timeout=5000)
        el.locator(".updatemenu-dropdown-button-group .updatemenu-dropdown-button").nth(target).click(timeout=5000)
    else:
        el.locator(".updatemenu-header-group").nth(index).locator(".updatemenu-button").nth(target).click(timeout=5000)


def control_problems(page, div, layout, use, patience=5):
    """Check a reader can reach the figure's first control (use=True: and that operating it redraws the figure)."""
    control = pick_control(layout)
    if control is None:
        return []
    kind, index, target = control
    el = page.locator(f'[id="{div}"]')
    el.evaluate(REVEAL_JS)
    problems = [f"{div}: a reader cannot reach its {kind} #{index}: {p}" for p in el.evaluate(REACH_JS, list(control))]
    if problems or not use:
        return problems
    before = el.evaluate(SNAPSHOT_JS)
    try:
        operate(page, el, kind, index, target)
    except Exception as err:  # noqa: BLE001 - report which control could not be operated
        return [f"{div}: could not operate its {kind} #{index}: {str(err).splitlines()[0]}"]
    try:  # a live control redraws within a frame or two
        page.wait_for_function(
            f"([el, was]) => {{ const m = ({MOVED_JS})(el, was); return m.state && m.svg; }}",
            arg=[el.element_handle(), before],
            polling=50,
            timeout=patience * 1000,
        )
    except Exception:  # noqa: BLE001 - a timeout: the checks below say what did not change
        pass
    moved, active = el.evaluate(MOVED_JS, before), el.evaluate(ACTIVE_JS, [kind, index])
    return (
        [f"{div}: {kind} #{index} is at step {active} after the reader moved it to {target}"] * (active != target)
        + [f"{div}: {kind} #{index} step {target} changed neither the data nor the layout"] * (not moved["state"])
        + [f"{div}: {kind} #{index} step {target} did not change what is drawn"] * (not moved["svg"])
    )


# ---- every figure named, every heatmap's numbers as a table that agrees with it

FIGURE_NAMES_JS = """() => [...document.querySelectorAll('.js-plotly-plot')].map(el => {
  const fig = el.closest('figure');
  return {id: el.id, name: fig ? (fig.getAttribute('aria-label') || '') : '',
          heatmap: el.data.some(t => t.type === 'heatmap'),
          table: !!document.querySelector('details.primer-figure-table[data-figure="' + el.id + '"]')};
})"""

# Open a figure's table (its toggle fills it), then compare each cell with the heatmap drawn there: the label printed
# on the cell if it has one (a formatted value, or −∞ on a closed cell), else its z, to the digits the table shows.
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
      if (label) {
        if (text !== label) bad.push(`${r},${c}: table says '${text}', the figure's cell says '${label}'`);
        if (!Number.isFinite(Number(label.replace('%', '')))) labels.add(text);
      } else if (Number.isFinite(num) && text.trim() !== '') {
        const half = 0.5 * 10 ** -(text.split('.')[1] || '').replace('%', '').length * 1.0001 + 1e-9;
        if (Math.abs(num - z * (text.endsWith('%') ? 100 : 1)) > half && Math.abs(num - z) > half)
          bad.push(`${r},${c}: table says ${text}, the figure's z is ${z}`);
      } else labels.add(text);
    }));
  }
  return {bad: bad.slice(0, 5), labels: [...labels], cells};
}"""


def figure_table_problems(page, seen_labels=None):
    """Check every figure has a name and every heatmap a table that agrees with it (this opens the tables)."""
    problems = []
    for fig in page.evaluate(FIGURE_NAMES_JS):
        if len(fig["name"]) < 8:
            problems.append(f"{fig['id']}: no accessible name ({fig['name']!r})")
        if fig["heatmap"] != fig["table"]:
            problems.append(f"{fig['id']}: heatmap={fig['heatmap']} but table={fig['table']}")
        if fig["heatmap"] and fig["table"]:
            out = page.locator(f'[id="{fig["id"]}"]').evaluate(TABLE_CHECK_JS)
            problems += [f"{fig['id']}: {b}" for b in out["bad"]] + [f"{fig['id']}: the table is empty"] * (
                not out["cells"]
            )
            if seen_labels is not None:
                seen_labels.update(out["labels"])
    return problems


# ---- Chinese drawn by a CJK font, in its Simplified Chinese face

HAN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# Where a zh page has Chinese of its own: the title must; the rest may.
CJK_PLACES = (
    "article h1, article h1 abbr",
    "article h2, article h2 abbr",
    "article p",
    ".md-header__topic .md-ellipsis",
    ".js-plotly-plot .main-svg text",
)
MARK_JS = """selector => {
  const own = el => [...el.childNodes].filter(n => n.nodeType === 3).map(n => n.data).join('');
  const el = [...document.querySelectorAll(selector)].find(e => /[\\u3400-\\u4dbf\\u4e00-\\u9fff]/.test(own(e)));
  if (!el) return null;
  document.querySelectorAll('[data-cjk]').forEach(e => e.removeAttribute('data-cjk'));
  el.setAttribute('data-cjk', '');
  return own(el);
}"""


def cjk_problems(page):
    """For the first element with Chinese text of its own in each CJK_PLACES: chromium drew its Chinese characters
    with a CJK font (DevTools' CSS.getPlatformFontsForNode), not as boxes, and in the Simplified Chinese face."""
    cdp, problems = page.context.new_cdp_session(page), []
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    for i, selector in enumerate(CJK_PLACES):
        text = page.evaluate(MARK_JS, selector)
        if text is None:
            problems += [f"{selector}: no element with Chinese text"] * (i == 0)
            continue
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": "[data-cjk]"})["nodeId"]
        fonts = [
            (f["familyName"], f["glyphCount"])
            for f in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        ]
        cjk = [(f, n) for f, n in fonts if re.search(r"CJK|Source Han|WenQuanYi|Droid Sans Fallback", f, re.I)]
        if sum(n for _, n in cjk) < len(HAN.findall(text)):
            problems.append(
                f"{selector} {text.strip()[:40]!r}: {len(HAN.findall(text))} Chinese characters, "
                f"CJK fonts drew {sum(n for _, n in cjk)} glyphs; fonts used: {fonts}"
            )
        problems += [
            f"{selector}: drawn with {f}, not the Simplified Chinese face (is <html lang> zh?)"
            for f, _ in cjk
            if f.startswith("Noto Sans CJK") and not f.endswith(" SC")
        ]
    cdp.detach()
    return problems


# ---- the visits


@pytest.mark.parametrize("name", page_names() + notebook_names())
@pytest.mark.parametrize("lang", LANGS)
def test_page_is_offline_quiet_accessible_drawn_tabled_and_its_controls_respond(site, open_page, operated, lang, name):
    figures = page_figures(html_path(site, lang, name).read_text(encoding="utf-8"))
    visit = open_page(url_path(site, lang, name))
    page = visit.page
    drawn = wait_drawn(page, list(figures))
    problems = [f"figure {div} never drew" for div in figures if div not in drawn]
    problems += page.evaluate(MATH_PROBLEMS_JS) + (cjk_problems(page) if lang == "zh" else [])
    problems += figure_table_problems(page)  # this opens the tables: axe sees them as a reader who opens them does
    problems += axe_problems(page)  # before any control moves
    for div, (_data, layout, _config) in figures.items():
        if div in drawn:
            problems += control_problems(page, div, layout, use=lang == OPERATED_LANG and div in operated)
    problems += visit.problems()
    assert not problems, f"{lang}/{name}:\n  " + "\n  ".join(problems)


def test_a_figure_of_every_kind_of_control_on_the_site_is_operated(site, operated):
    kinds = {
        control_kind(layout)
        for name in page_names()
        for lang in LANGS
        for _data, layout, _config in page_figures(html_path(site, lang, name).read_text("utf-8")).values()
    }
    assert set(operated.values()) == kinds - {None}
    assert {kind for kind, _methods in operated.values()} == {"slider", "buttons", "dropdown"}
    assert any("restyle" in methods for _kind, methods in operated.values())  # x/y restyled, not only shown


# ---- planted problems: each check above can fail

PLANT_JS = """() => Promise.all([['fig-live', false], ['fig-dead', true]].map(([id, dead]) => {
  const div = document.createElement('div');
  div.id = id;
  div.style.height = '300px';
  document.querySelector('article').appendChild(div);
  const steps = [0, 1].map(i => ({label: String(i), method: 'update',
                                   args: [{visible: dead ? [true, true] : [i === 0, i === 1]}]}));
  return Plotly.newPlot(div, [{y: [1, 2], visible: true}, {y: [2, 1], visible: dead}], {sliders: [{active: 0, steps}]});
}))"""
COVER_JS = """() => { const box = document.getElementById('fig-live').getBoundingClientRect();
  const cover = document.createElement('div');
  cover.style.cssText = `position: absolute; left: ${box.left + scrollX}px; top: ${box.top + scrollY}px;
                         width: ${box.width}px; height: ${box.height}px; z-index: 10`;
  document.body.appendChild(cover); }"""


def test_the_visit_catches_a_foreign_request_a_console_error_untyped_math_a_dead_and_a_covered_control(
    open_page, base_url
):
    visit = open_page("")
    page, failed = visit.page, []
    page.on("requestfailed", lambda r: failed.append(r.failure))
    page.evaluate("""() => { ['https://example.com/t.js', 'http://192.0.2.1/p.gif']
                              .forEach(u => fetch(u).catch(() => {}));
                            new WebSocket('wss://example.net/s');
                            console.error('planted error');
                            const m = document.createElement('span'); m.className = 'arithmatex';
                            m.textContent = '\\\\(x\\\\)';
                            document.querySelector('article').appendChild(m); }""")
    page.add_script_tag(url=base_url + "assets/vendor/plotly/plotly-primer.min.js")
    page.evaluate(PLANT_JS)
    page.wait_for_function("() => document.querySelectorAll('#fig-live .main-svg, #fig-dead .main-svg').length >= 2")
    for _ in range(50):
        if len(failed) == 2:
            break
        page.wait_for_timeout(100)
    # neither left the machine: a host name and a bare address both went to the closed proxy
    assert failed == ["net::ERR_PROXY_CONNECTION_FAILED"] * 2
    problems = visit.problems()
    assert [p for p in problems if "another host" in p] == [
        "request to another host: http://192.0.2.1/p.gif",
        "request to another host: https://example.com/t.js",
        "request to another host: wss://example.net/s",
    ]
    assert any("planted error" in p for p in problems)
    assert [p[:17] for p in page.evaluate(MATH_PROBLEMS_JS)] == ["math not rendered"]
    layout = {"sliders": [{"active": 0, "steps": [{"method": "update"}] * 2}]}
    assert control_problems(page, "fig-live", layout, use=True) == []
    dead = control_problems(page, "fig-dead", layout, use=True, patience=1)
    assert any("changed neither" in p for p in dead) and any("did not change what is drawn" in p for p in dead), dead
    page.evaluate(COVER_JS)
    covered = control_problems(page, "fig-live", layout, use=False)
    assert len(covered) == 2 and all("lands on div" in p for p in covered), covered


def test_axe_the_table_check_and_the_cjk_check_catch_planted_problems(site, open_page):
    """On a one-figure zh chapter: an image without alt text and faint text; a table cell spoiled (a number, then a −∞
    label); Chinese tagged Japanese."""
    name = "13-today.md"
    page = open_page(url_path(site, "zh", name)).page
    assert wait_drawn(page, NEW_PLOT.findall(html_path(site, "zh", name).read_text(encoding="utf-8")))
    labels = set()
    assert figure_table_problems(page, labels) == [] and "−∞" in labels  # the check meets a labelled closed cell
    page.evaluate("""() => { const i = document.createElement('img'); i.src = 'data:,';
        const faint = document.createElement('p'); faint.textContent = 'faint'; faint.style.color = '#eee';
        document.querySelector('article').append(i, faint); }""")
    assert {"image-alt", "color-contrast"} <= {p.split(":")[1].split()[-1] for p in axe_problems(page)}
    for kind, wrong in (("number", "12345"), ("label", "open")):
        planted = page.evaluate(
            """([kind, wrong]) => {
          const fits = c => kind === 'label' ? c.textContent === '−∞'
                                             : Number.isFinite(Number(c.textContent)) && c.textContent !== '';
          for (const d of document.querySelectorAll('details.primer-figure-table')) {
            if (![...d.querySelectorAll('tbody td')].some(fits)) continue;
            d.addEventListener('toggle', () => {
              const c = [...d.querySelectorAll('tbody td')].find(fits); if (c) c.textContent = wrong; });
            return d.dataset.figure;
          }
        }""",
            [kind, wrong],
        )
        assert planted, f"no table on zh/{name} has a {kind} cell to spoil"
        assert any(p.startswith(planted + ":") and wrong in p for p in figure_table_problems(page)), kind
    assert cjk_problems(page) == []
    page.evaluate("document.documentElement.lang = 'ja'")
    assert any("not the Simplified Chinese face" in p for p in cjk_problems(page))

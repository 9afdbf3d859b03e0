"""The browser tests' plugin (tests/conftest.py loads it): the built site served locally, and Debian's chromium,
offline, opening one page a test in a fresh context that records every request and console error."""

import functools
import http.server
import threading
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from site_reader import html_path

from primer_site.browser import CHROMIUM, DESKTOP, LAUNCH_ARGS

PHONE = {"width": 390, "height": 844}


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextmanager
def serve(directory):
    """Serve directory on 127.0.0.1 on a free port from a background thread; yield the base URL."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(directory))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="session")
def base_url(site):
    with serve(site) as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    """Debian's chromium, headless; never a downloaded browser. Missing, it fails (never skips) with what to install."""
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"{CHROMIUM} is missing: run `make system-deps` (as root), which installs chromium, fonts-noto-cjk "
            "and poppler-utils",
            pytrace=False,
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        launched = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        yield launched
        launched.close()


class Visit:
    """One page in a fresh context: everything it requested and every console error it logged."""

    def __init__(self, page, base_url):
        self.page, self.base_url, self.requests, self.errors = page, base_url, [], []
        page.on("request", lambda r: self.requests.append(r.url))
        page.on("websocket", lambda ws: self.requests.append(ws.url))  # not a request to page.on("request") nor route()
        page.on(
            "console", lambda m: m.type == "error" and self.errors.append(f"{m.text} ({(m.location or {}).get('url')})")
        )
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))

    def foreign_requests(self):
        return sorted(
            {
                u
                for u in self.requests
                if not u.startswith(self.base_url) and urlsplit(u).scheme not in ("data", "blob", "about")
            }
        )

    def problems(self):
        """The requests for another host and the console errors so far (no allow-list: each one fails the page)."""
        self.page.wait_for_timeout(100)  # let late console messages arrive
        return [f"request to another host: {u}" for u in self.foreign_requests()] + [
            f"console error: {e}" for e in self.errors
        ]


@pytest.fixture
def open_page(browser, base_url):
    """Return open(path, viewport=DESKTOP) -> Visit: the page at base_url + path, loaded in a new context."""
    contexts = []

    def open_(path, viewport=DESKTOP):
        context = browser.new_context(viewport=viewport, service_workers="block")
        contexts.append(context)
        visit = Visit(context.new_page(), base_url)
        visit.page.goto(base_url + path, wait_until="load")
        return visit

    yield open_
    for context in contexts:
        context.close()


def url_path(site, lang, name):
    """Return the site-relative URL path of a page ('' for the zh home)."""
    rel = html_path(site, lang, name).relative_to(site).parent.as_posix()
    return "" if rel == "." else rel + "/"


ALL_DRAWN_JS = (
    "ids => ids.every(id => { const el = document.getElementById(id); return el && el.querySelector('.main-svg'); })"
)


def wait_drawn(page, ids, timeout=20):
    """Wait up to timeout seconds for the figures ids to draw; return the ids of the page's drawn figures."""
    try:
        page.wait_for_function(ALL_DRAWN_JS, arg=ids, timeout=timeout * 1000)
    except Exception:  # noqa: BLE001 - a timeout: the caller says which did not draw
        pass
    return page.evaluate(
        "() => [...document.querySelectorAll('.js-plotly-plot')].filter(el => el.querySelector("
        "'.main-svg')).map(el => el.id)"
    )


# What a reader does before using a figure tucked away: open the collapsed <details> and pick the tab it is in.
REVEAL_JS = """el => {
  for (let d = el.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) {
    if (!d.open) d.querySelector(':scope > summary').click();
  }
  for (let b = el.closest('.tabbed-block'); b; b = b.parentElement && b.parentElement.closest('.tabbed-block')) {
    const set = b.closest('.tabbed-set'), i = [...b.parentElement.children].indexOf(b);
    const label = set.querySelectorAll(':scope > .tabbed-labels > label')[i];
    const input = set.querySelectorAll(':scope > input')[i];
    if (input && !input.checked && label) label.click();
  }
}"""

# Math the build left as TeX: each arithmatex span or div must hold nothing but a <math> element, and the browser must
# take that element for MathML (not an unknown tag).
MATH_PROBLEMS_JS = """() => [...document.querySelectorAll('.arithmatex')]
  .filter(el => { const math = el.querySelector(':scope > math');
                  return !math || !(math instanceof MathMLElement) || el.childNodes.length !== 1; })
  .map(el => 'math not rendered: ' + el.textContent.trim().slice(0, 80))"""

# Serious and critical violations, and landmark-unique (moderate): issue 22 fixed it on every chapter page.
AXE_RUN_JS = """async () => (await axe.run(document, {resultTypes: ['violations']})).violations
  .filter(v => v.impact === 'serious' || v.impact === 'critical' || v.id === 'landmark-unique')
  .map(v => `axe: ${v.impact} ${v.id}: ${v.help}\\n    ` + v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' :: '
        + (n.failureSummary || '').split('\\n').slice(1, 2).join('')).join('\\n    '))"""


def axe_problems(page):
    """Run axe-core (tests/js, npm-locked) on the page as it is; return its violations that fail a page (AXE_RUN_JS)."""
    from node_tools import node_modules

    page.add_script_tag(path=str(node_modules() / "axe-core" / "axe.min.js"))
    return page.evaluate(AXE_RUN_JS)

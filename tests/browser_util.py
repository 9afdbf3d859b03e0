"""Helpers for the reader-guarantee tests: a local server for the built site and Debian's chromium."""

import functools
import http.server
import os
import shutil
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

# The checks load pages in Debian's chromium-headless-shell: chromium's own Blink and V8, without the browser around
# them (no window, no UI of its own); it is also what Playwright runs for headless chromium. A page load costs about
# 0.9 s of CPU less than in chromium. Tests of what only the whole browser shows use CHROMIUM (test_browser.py).
HEADLESS_SHELL = "/usr/bin/chromium-headless-shell"
CHROMIUM = "/usr/bin/chromium"
# Text tagged lang="zh" leaves the choice between the Chinese and Japanese glyph forms of Han characters open. Chromium
# settles it as Simplified Chinese even under the C locale; the headless shell leaves it to fontconfig, whose default
# language comes from the locale (C draws the Japanese forms). The shell gets the default a Chinese reader's system
# has. A test checks chromium itself, under the machine's own locale, draws a zh page with the Simplified Chinese face.
HEADLESS_SHELL_ENV = {"FC_LANG": "zh-cn"}
# Quiet, offline, throw-away: no first-run UI, no background fetches, no sync, no component updates. No WebUI
# omnibox popups either: headless chromium preloads two for every window, in a renderer of their own, which cost
# about 1 s of CPU per page opened in a new context. (Chromium merges this --disable-features with playwright's.)
# Every request to another host goes to a proxy at a closed local port (the discard port) and fails there, so none
# can leave the machine, whether it names a host or an address; the local server is reached directly, as loopback
# always bypasses a proxy. The tests still see each request a page makes (playwright's request event) and fail on any
# to another host. (Routing each request through playwright instead cost about 0.1 s of CPU a page load.)
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup",
               "--proxy-server=http://127.0.0.1:9"]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def require_browser(path):
    """Return path, the browser's executable, or fail (never skip) with what to install."""
    if not Path(path).exists():
        pytest.fail(f"{path} is missing: the browser tests need Debian's chromium, chromium-headless-shell and a CJK "
                    "font (`make system-deps`, or `sudo apt-get install chromium chromium-headless-shell fonts-noto-cjk`); "
                    "they never download a browser", pytrace=False)
    return path


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@contextmanager
def serve(directory):
    """Serve directory on 127.0.0.1 on a free port from a background thread; yield the base URL."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(directory)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@contextmanager
def start_playwright():
    """Start playwright; yield it, to launch browsers with."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        yield p


def launch(p, path=HEADLESS_SHELL):
    """Launch the browser at path (the headless shell, or CHROMIUM) with a temporary profile, offline and quiet."""
    env = dict(os.environ, **HEADLESS_SHELL_ENV) if path == HEADLESS_SHELL else None
    return p.chromium.launch(executable_path=require_browser(path), args=LAUNCH_ARGS, env=env)


def fc_list():
    """Return the output of `fc-list : family`, or '' if fontconfig is missing."""
    import subprocess

    exe = shutil.which("fc-list")
    if not exe:
        return ""
    return subprocess.run([exe, ":", "family"], capture_output=True, text=True).stdout


# ---- JavaScript run in the page

# Every figure the page holds: plotly divs and the fixed fig-* ids, whether each has drawn, and its controls.
FIGURES_JS = """() => {
  const els = new Set([...document.querySelectorAll('.js-plotly-plot, [id^="fig-"]')]);
  return [...els].map(el => ({
    id: el.id,
    plotly: el.classList.contains('js-plotly-plot'),
    drawn: !!el.querySelector('.main-svg'),
    sliders: ((el.layout && el.layout.sliders) || []).map(s => ({
      active: s.active || 0, n: (s.steps || []).length, visible: s.visible !== false})),
    menus: ((el.layout && el.layout.updatemenus) || []).map(u => ({
      type: u.type || 'dropdown', active: (u.active === undefined ? 0 : u.active),
      n: (u.buttons || []).length, visible: u.visible !== false})),
  }));
}"""

ALL_DRAWN_JS = """(ids) => ids.every(id => { const el = document.getElementById(id);
  return el && el.querySelector('.main-svg'); })"""

# What a control may change: trace data and visibility, the layout (minus the controls themselves),
# and the drawn SVG (minus controls and hover labels). Stored on the element to compare later.
SNAPSHOT_JS = """el => {
  const layout = Object.assign({}, el.layout); delete layout.sliders; delete layout.updatemenus;
  const state = JSON.stringify([el.data, layout]);
  const svg = [...el.querySelectorAll('.main-svg')].map(s => { const c = s.cloneNode(true);
    c.querySelectorAll('.slider-container, .updatemenu-container, .hoverlayer').forEach(x => x.remove());
    return c.innerHTML; }).join('');
  return {state, svg};
}"""

CONTROL_ACTIVE_JS = """([el, kind, index]) => kind === 'slider'
  ? (el.layout.sliders[index].active || 0)
  : el.layout.updatemenus[index].active"""

# What a reader does before using a figure tucked away: open the collapsed <details> and pick the tab it is in.
REVEAL_JS = """el => {
  for (let d = el.closest('details'); d; d = d.parentElement && d.parentElement.closest('details')) {
    if (!d.open) d.querySelector(':scope > summary').click();
  }
  for (let b = el.closest('.tabbed-block'); b; b = b.parentElement && b.parentElement.closest('.tabbed-block')) {
    const set = b.closest('.tabbed-set');
    const i = [...b.parentElement.children].indexOf(b);
    const label = set.querySelectorAll(':scope > .tabbed-labels > label')[i];
    const input = set.querySelectorAll(':scope > input')[i];
    if (input && !input.checked && label) label.click();
  }
}"""

# Math the build left as TeX: each arithmatex span or div must hold nothing but the <math> element that
# hooks/mathml.py made of it, and the browser must take that element for MathML (not an unknown tag).
MATH_PROBLEMS_JS = """() => [...document.querySelectorAll('.arithmatex')]
  .filter(el => {
    const math = el.querySelector(':scope > math');
    return !math || !(math instanceof MathMLElement) || el.childNodes.length !== 1;
  })
  .map(el => 'not rendered: ' + el.textContent.trim().slice(0, 80))"""

"""The in-page runner holds when a reader tries to break it, as the breaker did (issue 45): a flood of printed lines,
a worker stopped in time.sleep, poisoned numpy then Reset, runtime files that fail to load, a program that reaches for
the network or forges the runner's messages; and a second block's Run while one runs. Chromium, offline."""

import json

import pytest
from runner_pages import open_offline, page_blocks, same_print
from site_reader import html_path

from primer_site.browser import STOP_TIMER

pytestmark = pytest.mark.browser

STATUS = "([b, t]) => b.querySelector('[role=status]').textContent === t"
STATUS_IN = "([b, ts]) => ts.includes(b.querySelector('[role=status]').textContent)"
OUTPUT = "b => b.querySelector('.primer-runner-out pre').textContent"
# A rAF round trip from the test: how long the page takes to answer and paint (a frozen tab never answers in time).
FRAME_MS = (
    "() => new Promise(r => { const t = performance.now(); requestAnimationFrame(() => r(performance.now() - t)); })"
)


def chapter_url(site, url, lang, name):
    return url + html_path(site, lang, name).relative_to(site).parent.as_posix() + "/"


class Block:
    """One runnable block's bar on an open page: its labels, its buttons, its editor, its status and output."""

    def __init__(self, page, index=0):
        self.page, self.mark = page, page.locator(".primer-runner-mark").nth(index)
        self.bar = page.locator(".primer-runner").nth(index)
        self.words = json.loads(self.mark.get_attribute("data-runner-labels"))

    def button(self, key):
        return self.bar.get_by_role("button", name=self.words[key], exact=True)

    def status(self):
        return self.bar.get_by_role("status").text_content()

    def output(self):
        return self.page.evaluate(OUTPUT, self.bar.element_handle())

    def wait_status(self, *texts, timeout=180):
        self.page.wait_for_function(STATUS_IN, arg=[self.bar.element_handle(), list(texts)], timeout=timeout * 1000)
        return self.status()

    def done(self):
        return [self.words["done"].split("{")[0], self.words["failed"].split("{")[0]]

    def wait_started(self, timeout=180):
        """Wait until the program runs or has ended: a short one can end between two polls (the first Run loads)."""
        self.page.wait_for_function(
            "([b, r, ps]) => { const s = b.querySelector('[role=status]').textContent;"
            " return s === r || ps.some(p => s.startsWith(p)); }",
            arg=[self.bar.element_handle(), self.words["running"], self.done()],
            timeout=timeout * 1000,
        )

    def wait_end(self, timeout=180):
        """Wait until the status says done or failed; return it."""
        self.page.wait_for_function(
            "([b, ps]) => ps.some(p => b.querySelector('[role=status]').textContent.startsWith(p))",
            arg=[self.bar.element_handle(), self.done()],
            timeout=timeout * 1000,
        )
        return self.status()

    def edit(self, code):
        if not self.page.get_by_role("textbox", name=self.words["editor"]).count():
            self.button("edit").click()
        editor = self.page.get_by_role("textbox", name=self.words["editor"])
        editor.wait_for()
        editor.fill(code)

    def run(self, key="run"):
        label = self.button(key) if self.button(key).count() else self.button("re" + key)
        label.click()


def test_a_flood_of_printed_points_leaves_the_page_responsive_and_stop_at_hand(site, browser, sub_path_url):
    """D1: 2,000 points printed as fast as Python can; the page paints within a frame or two all along, every point
    reaches the figure, and an endless flood is stopped by Stop at once and by the time limit on time."""
    page, _, foreign = open_offline(browser, chapter_url(site, sub_path_url, "en", "07-decoder.md"), time_limit=25)
    pg = Block(page, 0)
    assert page.locator(".primer-runner-mark").first.get_attribute("data-playground")
    pg.edit("for i in range(1, 2001):\n    print(f'{i} 1.5 2.5')\n")
    pg.run("train")
    pg.wait_started()  # the 2,000 lines print in a fraction of a second; drawing them takes longer
    worst = max(page.evaluate(FRAME_MS) for _ in range(10))
    pg.wait_end()
    assert worst < 1000, f"a frame took {worst:.0f} ms while the program printed"
    assert pg.output().count("\n") >= 2000
    figure = pg.mark.get_attribute("data-playground")
    traces = json.loads(pg.mark.get_attribute("data-traces"))
    lengths = page.evaluate(
        "([id, uids]) => uids.map(u => document.getElementById(id).data.find(t => t.uid === u).x.length)",
        [figure, traces],
    )
    assert lengths == [2000, 2000]
    pg.edit("i = 0\nwhile True:\n    i += 1\n    print(f'{i} 1.5 2.5')\n")
    pg.run("train")
    pg.wait_status(pg.words["running"])
    page.wait_for_timeout(1500)
    worst = max(page.evaluate(FRAME_MS) for _ in range(5))
    page.evaluate(STOP_TIMER, [pg.bar.element_handle(), pg.words["stopped"]])
    assert pg.status() == pg.words["running"], (pg.status(), worst)
    pg.button("stop").click()
    assert pg.wait_status(pg.words["stopped"], timeout=5) == pg.words["stopped"]
    took = page.evaluate("window.__stopTook")
    assert took < 1000 and worst < 1000, (took, worst)
    assert pg.output().strip()  # what it printed until then stays
    kept = page.evaluate(
        "id => document.getElementById(id).data.filter(t => (t.uid || '').includes('-kept-')).map(t => t.name)", figure
    )
    assert kept and all("mask = " in name for name in kept), kept  # the earlier runs stay, labelled
    pg.run("train")  # a fresh worker (Stop ended the last): the limit counts from the start of the run, not the load
    pg.wait_status(pg.words["running"], timeout=120)
    t = page.evaluate("performance.now()")
    pg.wait_status(pg.words["timeout"].replace("{seconds}", "25"), timeout=60)
    assert page.evaluate("performance.now()") - t < 25000 + 5000  # a loaded machine delays the check itself
    pg.bar.get_by_role("button", name=pg.words["clear_runs"]).click()
    assert not page.evaluate(
        "id => document.getElementById(id).data.filter(t => (t.uid || '').includes('-kept-')).length", figure
    )
    assert foreign == []
    page.context.close()


def test_a_stopped_worker_cannot_touch_the_next_run_and_reset_brings_back_the_pages_interpreter(
    site, browser, sub_path_url
):
    """D2: Stop during time.sleep, then Run at once, twice; D3: numpy and print poisoned by edited code, then Reset:
    the page's own code prints the page's output; D9: the pressed Run keeps the focus; D12: a new run clears."""
    page, _, foreign = open_offline(browser, chapter_url(site, sub_path_url, "en", "05-mask.md"))
    ((_, _, printed),) = page_blocks(site, "en", "05-mask.md")
    block = Block(page)
    for _ in range(2):
        block.edit("import time\nprint('sleeping')\ntime.sleep(60)\n")
        block.run()
        block.wait_status(block.words["running"])
        page.wait_for_timeout(1500)
        block.button("stop").click()
        block.edit("print('x')\n")
        block.run()
        assert block.wait_end().startswith(block.words["done"].split("{")[0])
        page.wait_for_timeout(2500)  # when the stopped worker's late NoGilError would arrive
        assert block.output() == "x\n" and block.status().startswith(block.words["done"].split("{")[0])
    block.edit("import builtins, numpy as np\nnp.tril = lambda m, k=0: np.ones_like(m)\nbuiltins.print = len\n")
    block.run()
    block.wait_end()
    block.button("reset").click()
    block.button("run").focus()  # Reset brings back the page's code and the first label
    page.keyboard.press("Enter")
    assert page.evaluate("b => document.activeElement === b.querySelector('button')", block.bar.element_handle())  # D9
    assert block.output() == ""  # D12: the new run cleared the old output at once
    block.wait_end()
    assert same_print(printed, block.output()) is None
    block.edit("print('x' * 5000)\nfor i in range(2000):\n    print(i)\n")
    block.run()
    block.wait_end()
    box = page.evaluate(  # D16 and the learner's: the box scrolls inside the text column, at a limited height
        """b => { const pre = b.querySelector('.primer-runner-out pre'), r = pre.getBoundingClientRect(),
                  a = document.querySelector('article').getBoundingClientRect();
                  return [r.right <= a.right + 1, pre.scrollHeight > pre.clientHeight,
                          r.height < 0.8 * innerHeight]; }""",
        block.bar.element_handle(),
    )
    assert box == [True, True, True], box
    block.edit("input('your name? ')\n")
    block.run()
    assert block.wait_end().startswith(block.words["failed"].split("{")[0])
    assert block.output().rstrip().endswith(block.words["no_input"])
    assert foreign == []
    page.context.close()


NETWORK_PROGRAM = """
import js, pyodide_js
from pyodide.ffi import to_js
tries = {
    "fetch": lambda: js.fetch("https://example.com/"),
    "XMLHttpRequest": lambda: js.XMLHttpRequest.new(),
    "WebSocket": lambda: js.WebSocket.new("wss://example.com/"),
    "importScripts": lambda: js.importScripts("https://example.com/x.js"),
    "loadPackage": lambda: pyodide_js.loadPackage("https://example.com/x.whl"),
    "prototype fetch": lambda: js.Object.getPrototypeOf(js.self).fetch("https://example.com/"),
}
for name, attempt in tries.items():
    try:
        attempt()
        print(name, "went out")
    except Exception as e:
        print(name, "refused" if "{refused}" in str(e) else "other: " + str(e)[:80], flush=True)
js.postMessage(to_js({"type": "result", "error": "", "id": 1}, dict_converter=js.Object.fromEntries))
while True:
    pass
"""


def test_reader_code_cannot_reach_the_network_nor_forge_the_runners_messages(site, browser, sub_path_url):
    """D18, D19: every way out of the worker is refused with the runner's message, no request or WebSocket leaves;
    a forged result is ignored, and the time limit still ends the spinning program."""
    page, requests, foreign = open_offline(browser, chapter_url(site, sub_path_url, "en", "05-mask.md"), time_limit=10)
    sockets = []
    page.on("websocket", lambda ws: sockets.append(ws.url))
    block = Block(page)
    refused = block.words["no_network"].split("{")[0]
    block.edit(NETWORK_PROGRAM.replace("{refused}", refused))
    block.run()
    timeout = block.words["timeout"].replace("{seconds}", "10")
    block.wait_status(timeout, timeout=180)
    lines = block.output().strip().splitlines()
    assert lines == [
        f"{n} refused" for n in ("fetch", "XMLHttpRequest", "WebSocket", "importScripts", "loadPackage")
    ] + ["prototype fetch refused"], lines
    assert sockets == [] and foreign == [] and not [u for u in requests if "example.com" in u]
    page.context.close()


@pytest.mark.parametrize("broken", ["pyodide.asm.wasm", "numpy-"])
def test_a_runtime_file_that_fails_says_so_and_the_next_run_retries(site, browser, sub_path_url, broken):
    """D5, D13: a wasm that never arrives ends loading at the load limit with the message; a numpy that fails to load
    is a failure (not a run without numpy); once the file is back, Run loads afresh and runs."""
    page, _, foreign = open_offline(browser, chapter_url(site, sub_path_url, "en", "05-mask.md"), load_limit=15)
    ((_, _, printed),) = page_blocks(site, "en", "05-mask.md")
    held = []

    def hold(route):  # the wasm never answers (the breaker saw a wasm 404 hang forever); numpy's wheel is a 404
        if broken == "numpy-":
            route.fulfill(status=404, body="")
        else:
            held.append(route)

    page.context.route(f"**/{broken}*", hold)
    block = Block(page)
    block.run()
    if broken == "numpy-":
        status = block.wait_status(block.words["load_failed"], timeout=120)
        assert "numpy" in block.output()
    else:
        wanted = block.words["load_timeout"].replace("{seconds}", block.mark.get_attribute("data-load-limit"))
        status = block.wait_status(wanted, timeout=200)
    assert "[object Event]" not in block.output() + status
    page.context.unroute(f"**/{broken}*")
    for r in held:
        try:
            r.abort()
        except Exception:  # noqa: BLE001 - its worker is gone already
            pass
    block.run()
    block.wait_end()
    assert same_print(printed, block.output()) is None
    assert foreign == []
    page.context.close()


def test_a_second_blocks_run_waits_and_says_so(site, browser, sub_path_url):
    """D11: the playground trains; the dozen lines' Run says it waits, then runs when the first ends."""
    page, _, foreign = open_offline(browser, chapter_url(site, sub_path_url, "en", "07-decoder.md"))
    first, second = Block(page, 0), Block(page, 1)
    first.edit("import time\ntime.sleep(3)\nprint('first')\n")
    first.run("train")
    first.wait_status(first.words["running"])
    second.run()
    assert second.status() == second.words["waiting"]
    first.wait_end()
    second.wait_end()
    assert first.output() == "first\n" and second.output().strip()
    assert foreign == []
    page.context.close()

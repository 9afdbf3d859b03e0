"""The in-page runner in Chromium against the local gzipping server: what a chapter costs before Run, the first Run
(cold: Pyodide, numpy and primer.zip fetched and started), a second Run (warm), Run on a second visit (browser cache),
the editor's first Edit, and chapter 7's playground: Train as written (200 steps), on a fresh page and again; then
the playground flooded: 2,000 printed points (the longest frame while they stream, the time to the last) and an endless
print loop (the longest frame, and the time from pressing Stop to "Stopped"). Last, chapter 7's notebook page in a
fresh browser: what it fetches before Run, and Run on the six masks' check (the cells above it run first, the runtime
fetched cold): the time to its verdict, and the six-mask cell's own time as its status line says it.

    python bench/bench_runner.py SITE_DIR     # a built site; bench/run.py runs it on its own build
"""

import gzip
import json
import re
import sys
import tempfile
import time
from pathlib import Path

from bench_pages import CHROMIUM, DESKTOP, LAUNCH_ARGS, QUIET_S, gzip_server

from primer_site.browser import STOP_TIMER

PAGE = "/en/05-mask/"
PLAYGROUND = "/en/07-decoder/"
NOTEBOOK, SIX_MASKS = "/en/notebooks/07-decoder/", "experiment-0"  # the page, the six-mask cell (its check follows)
SHOWN = (
    "() => { const o = document.querySelector('.primer-runner-out'); return o && !o.hidden && o.textContent.length; }"
)
ENDED = (  # the status says the run ended: done, failed, stopped or timed out
    "([bar, words]) => { const s = bar.querySelector('[role=status]').textContent;"
    " return [words.done, words.failed, words.stopped, words.timeout].some(w => s.startsWith(w.split('{')[0])); }"
)
# The longest gap between two animation frames over ms milliseconds: a frozen tab has one as long as the freeze.
LONGEST_FRAME = """ms => new Promise(done => {
  let last = performance.now(), worst = 0; const end = last + ms;
  function tick(t) {
    worst = Math.max(worst, t - last); last = t;
    if (t < end) requestAnimationFrame(tick); else done(worst);
  }
  requestAnimationFrame(tick);
})"""
FLOOD = "for i in range(1, 2001):\n    print(f'{i} 1.5 2.5')\n"
ENDLESS = "i = 0\nwhile True:\n    i += 1\n    print(f'{i} 1.5 2.5')\n"
CLEAR = (
    "() => { const o = document.querySelector('.primer-runner-out'); o.hidden = true; o.firstChild.textContent = ''; }"
)


def settle(log, mark):
    """Wait until the server has been quiet for QUIET_S; return the bytes it sent since mark."""
    while True:
        rows = log.since(mark)
        if not rows or time.perf_counter() - log.start - rows[-1][0] >= QUIET_S:
            return sum(n for _, _, n in rows), [p for _, p, _ in rows]
        time.sleep(0.1)


def timed_run(page, label):
    """Press the first block's Run (its label: Train on a playground) and return the seconds until it has ended."""
    page.evaluate(CLEAR)
    words = json.loads(page.locator(".primer-runner-mark").first.get_attribute("data-runner-labels"))
    bar = page.locator(".primer-runner").first.element_handle()
    start = time.perf_counter()
    page.locator(".primer-runner button").filter(has_text=re.compile(f"^{label}$")).first.click()
    page.wait_for_function(SHOWN, timeout=300_000, polling="raf")
    page.wait_for_function(ENDED, arg=[bar, words], timeout=300_000)
    return time.perf_counter() - start


def flood(page, words):
    """Return the playground's flood figures: 2,000 points (longest frame, seconds to the end), an endless loop
    (longest frame over 3 s, seconds from Stop to "Stopped")."""
    out = {}
    bar = page.locator(".primer-runner").first
    bar.get_by_role("button", name=words["edit"], exact=True).click()
    editor = page.get_by_role("textbox", name=words["editor"])
    editor.wait_for()
    editor.fill(FLOOD)
    start = time.perf_counter()
    bar.get_by_role("button", name=re.compile(f"^({words['train']}|{words['retrain']})$")).click()
    out["flood_frame_ms"] = page.evaluate(LONGEST_FRAME, 1500)
    page.wait_for_function(ENDED, arg=[bar.element_handle(), words], timeout=300_000)
    out["flood_s"] = time.perf_counter() - start
    out["flood_points"] = page.evaluate(
        "() => document.getElementById('fig-playground').data.filter(t => (t.uid || '').startsWith('reader-')"
        " && !t.uid.includes('-kept-')).map(t => t.x.length)"
    )
    editor.fill(ENDLESS)
    bar.get_by_role("button", name=words["retrain"], exact=True).click()
    page.wait_for_timeout(1000)
    out["endless_frame_ms"] = page.evaluate(LONGEST_FRAME, 3000)
    page.evaluate(STOP_TIMER, [bar.element_handle(), words["stopped"]])
    bar.get_by_role("button", name=words["stop"], exact=True).click()
    page.wait_for_function("() => window.__stopTook !== undefined")
    out["stop_s"] = page.evaluate("window.__stopTook") / 1000
    return out


def notebook(p, base, log):
    """Return the notebook page's figures in a fresh browser: bytes before Run, then Run on the six masks' check."""
    from playwright.sync_api import expect

    browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
    page = browser.new_context(viewport=DESKTOP, service_workers="block").new_page()
    out, mark = {}, log.mark()
    page.goto(base + NOTEBOOK, wait_until="load")
    out["nb_visit_bytes"], paths = settle(log, mark)
    out["nb_runtime_before_run"] = [p for p in paths if "pyodide" in p or "/runner/worker" in p or "primer.zip" in p]
    words = json.loads(page.locator(".primer-runner-mark").first.get_attribute("data-runner-labels"))
    check = page.locator(f'.primer-runner-mark[data-runnable="{SIX_MASKS}-check"] + .primer-runner')
    start = time.perf_counter()
    check.get_by_role("button", name=words["run"], exact=True).click()
    done = words["done"].split("{")[0]
    expect(check.get_by_role("status")).to_contain_text(done, timeout=300_000)
    out["nb_first_run_s"] = time.perf_counter() - start
    six = page.locator(f'.primer-runner-mark[data-runnable="{SIX_MASKS}"] + .primer-runner')
    out["six_masks_status"] = six.get_by_role("status").text_content()
    out["six_masks_verdict"] = check.locator(".primer-runner-out pre").text_content()[:40]
    browser.close()
    return out


def markup_overhead(site):
    """Return (runner.js gzipped, the page's gzipped HTML minus the same HTML without the runner's markup)."""
    html = (Path(site) / PAGE.strip("/") / "index.html").read_bytes()
    bare = re.sub(rb'\n<div class="primer-runner-mark" [^>]*></div>', b"", html)
    bare = re.sub(rb'\s*<script defer src="[^"]*runner\.js"></script>', b"", bare)
    size = lambda b: len(gzip.compress(b, 6, mtime=0))  # noqa: E731
    script = (Path(site) / "assets" / "runner" / "runner.js").read_bytes()
    return size(script), size(html) - size(bare)


def measure(site):
    """Return the runner's figures on PAGE (seconds and bytes)."""
    from playwright.sync_api import sync_playwright

    r = {"page": PAGE}
    r["script_gz"], r["markup_gz"] = markup_overhead(site)
    with tempfile.TemporaryDirectory() as profile, gzip_server(site) as (base, log), sync_playwright() as p:
        # A profile on disk, as a reader's browser has: an in-memory (incognito) cache does not keep the 10 MB wasm.
        ctx = p.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=LAUNCH_ARGS, viewport=DESKTOP, service_workers="block"
        )
        page = ctx.new_page()
        mark = log.mark()
        page.goto(base + PAGE, wait_until="load")
        r["visit_bytes"], paths = settle(log, mark)
        r["runtime_before_run"] = [p for p in paths if "pyodide" in p or "/runner/worker" in p or "primer.zip" in p]
        text = json.loads(page.locator(".primer-runner-mark").first.get_attribute("data-runner-labels"))
        mark = log.mark()
        r["cold_s"] = timed_run(page, text["run"])
        r["cold_bytes"], r["cold_files"] = settle(log, mark)
        r["warm_s"] = sorted(timed_run(page, text["rerun"]) for _ in range(5))
        mark = log.mark()
        page.locator(".primer-runner button").filter(has_text=re.compile(f"^{text['edit']}$")).first.click()
        page.locator(".cm-editor").wait_for()
        r["edit_bytes"], _ = settle(log, mark)
        page.goto(base + PAGE, wait_until="load")  # a second visit: the browser's cache holds the runtime
        settle(log, log.mark())
        mark = log.mark()
        r["cached_s"] = timed_run(page, text["run"])
        r["cached_bytes"], _ = settle(log, mark)
        page.goto(base + PLAYGROUND, wait_until="load")  # the runtime is in the browser's cache by now
        settle(log, log.mark())
        r["train_first_s"] = timed_run(page, text["train"])
        r["train_again_s"] = timed_run(page, text["retrain"])
        r["train_points"] = page.evaluate(
            "() => document.getElementById('fig-playground').data.filter(t => (t.uid || '').startsWith('reader-')"
            " && !t.uid.includes('-kept-')).map(t => t.x.length)"
        )
        r.update(flood(page, text))
        ctx.close()
        r.update(notebook(p, base, log))
    return r


def report(r):
    warm = r["warm_s"]
    return "\n".join(
        [
            f"On {r['page']}: before Run the page fetched {r['visit_bytes'] / 1000:.0f} KB and no byte of the runtime "
            f"({len(r['runtime_before_run'])} runtime requests); the runner's share of that is runner.js, "
            f"{r['script_gz'] / 1000:.1f} KB gzipped, and its markup, {r['markup_gz'] / 1000:.1f} KB gzipped.",
            f"- first Run (cold): {r['cold_s']:.1f} s to the output, {r['cold_bytes'] / 1e6:.1f} MB fetched "
            f"({len(r['cold_files'])} requests)",
            f"- Run again (warm): median {warm[len(warm) // 2] * 1000:.0f} ms (range {warm[0] * 1000:.0f}–"
            f"{warm[-1] * 1000:.0f} ms, 5 runs)",
            f"- first Edit: {r['edit_bytes'] / 1000:.0f} KB fetched (CodeMirror)",
            f"- a second visit, first Run: {r['cached_s']:.1f} s, {r['cached_bytes'] / 1000:.0f} KB fetched "
            "(the rest from the browser's cache)",
            f"- chapter 7's playground, Train as written (200 steps, the runtime from the cache): "
            f"{r['train_first_s']:.1f} s to the last line on a fresh page, {r['train_again_s']:.1f} s again; "
            f"{r['train_points']} points drawn",
            f"- the playground flooded with 2,000 printed points: {r['flood_s']:.1f} s to the last, "
            f"{r['flood_points']} points drawn, the longest frame while they streamed {r['flood_frame_ms']:.0f} ms; "
            f'an endless print loop: longest frame {r["endless_frame_ms"]:.0f} ms, from the click on Stop to "Stopped" '
            f"{r['stop_s'] * 1000:.0f} ms",
            f"- {NOTEBOOK} in a fresh browser: {r['nb_visit_bytes'] / 1000:.0f} KB before Run "
            f"({len(r['nb_runtime_before_run'])} runtime requests); Run on the six masks' check, the cells above it "
            f"first, the runtime cold: {r['nb_first_run_s']:.1f} s to its verdict; the six-mask cell itself: "
            f"{r['six_masks_status']!r}; the check printed {r['six_masks_verdict']!r}…",
        ]
    )


if __name__ == "__main__":
    print(report(measure(sys.argv[1])))

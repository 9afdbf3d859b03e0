"""What the runner's tests share: a built page's runnable blocks, printed outputs compared, a page opened offline."""

import json
import math
import re
import subprocess

from hook_loader import load_hook
from node_tools import node
from site_reader import ROOT, html_path, runnable_blocks

runner = load_hook("runner")
NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def page_blocks(site, lang, name):
    """Return [(snippet, code, what the build printed)] of a built page's runnable blocks."""
    return runnable_blocks(html_path(site, lang, name).read_text(encoding="utf-8"))


def last_place(token):
    """Return one unit in the last printed digit of a number token ('1.33e-24' -> 1e-26, '0.125' -> 1e-3); an integer
    is exact (0)."""
    if not re.search(r"[.eE]", token):
        return 0.0
    mantissa, _, exponent = token.lower().partition("e")
    decimals = len(mantissa.partition(".")[2])
    return 10.0 ** (-decimals + int(exponent or 0))


def same_print(expected, got):
    """Return the first difference between two printed outputs, or None: the words equal, every number within one
    unit of its last printed digit (numpy here and in Pyodide may round a tie apart)."""
    if NUMBER.split(expected.strip()) != NUMBER.split(got.strip()):
        return f"text differs:\n{expected}\n---\n{got}"
    for a, b in zip(NUMBER.findall(expected), NUMBER.findall(got)):
        if a != b and not math.isclose(float(a), float(b), rel_tol=0, abs_tol=max(last_place(a), last_place(b)) * 1.01):
            return f"{a} != {b}"
    return None


def open_offline(browser, url, init_script=None, time_limit=None, load_limit=None):
    """Open url in a fresh context that aborts and counts every request for another host, the page's time limit
    (and load limit) rewritten to time_limit (load_limit) seconds if given; return (page, requests, foreign)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, service_workers="block")
    requests, foreign = [], []
    context.on("request", lambda r: requests.append(r.url))

    def route(r):
        if (time_limit or load_limit) and r.request.url == url:
            response = r.fetch()
            body = response.text()
            if time_limit:
                body = body.replace(f'data-time-limit="{runner.TIME_LIMIT_S}"', f'data-time-limit="{time_limit}"')
            if load_limit:
                body = body.replace(f'data-load-limit="{runner.LOAD_LIMIT_S}"', f'data-load-limit="{load_limit}"')
            r.fulfill(response=response, body=body)
        elif r.request.url.startswith("http://127.0.0.1:"):
            r.continue_()
        else:
            foreign.append(r.request.url)
            r.abort()

    context.route("**/*", route)
    if init_script:
        context.add_init_script(init_script)
    page = context.new_page()
    page.goto(url, wait_until="load")
    return page, requests, foreign


def run_under_node(site, blocks, tmp_path, timeout=600):
    """Run blocks ([{"key", "code", and a "session" to share}]) with tests/js/run_blocks.cjs; return its report."""
    spec = tmp_path / "blocks.json"
    spec.write_text(json.dumps(blocks), encoding="utf-8")
    proc = subprocess.run(
        [node(), str(ROOT / "tests" / "js" / "run_blocks.cjs"), str(site), str(spec)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout)

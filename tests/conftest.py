"""Shared fixtures: one strict build of the whole site per test session (in the background), and page readers over it."""

import hashlib
import html as htmllib
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
# No deadline: hypothesis would otherwise fail a test that runs slowly on a loaded machine, and the
# tests never time anything. `make check` runs the unit tests with fewer generated examples, for a
# quick edit loop; `make test` runs all of them (100 a property, or what a test's @settings says).
settings.register_profile("full", deadline=None)
settings.register_profile("quick", deadline=None, max_examples=15)
settings.load_profile("full")

SITE_FIXTURES = {"site", "read_page", "second_site"}   # a test that asks for these reads the built site
# scratch builds; the vendored plotly.js against the installed plotly; the build's notebook kernels and renderer
SITE_MODULES = {"test_build", "test_plotly_bundle", "test_notebook_runs", "test_notebook_html"}
DOCS = ROOT / "docs"
LANGS = ("zh", "en")


def beautifulsoup_reading(html):
    """Return (anchors, {"a": hrefs, "img": srcs}) of a page as htmlproofer's own BeautifulSoup reading finds them:
    the oracle hooks/page_scan.py is checked against."""
    import htmlproofer.plugin as proofer
    from bs4 import BeautifulSoup, SoupStrainer

    anchors = getattr(proofer, "bs4_read_anchors", proofer.read_anchors)(html)   # theirs, even once the hook swapped it
    soup = BeautifulSoup(html, "html.parser", parse_only=SoupStrainer(("a", "img")))   # as htmlproofer reads links
    return anchors, {"a": {str(t["href"]) for t in soup.find_all("a", href=True)},
                     "img": {str(t["src"]) for t in soup.find_all("img", src=True)}}


def page_names():
    """Return the Markdown pages of the zh side, as paths relative to docs/zh."""
    return sorted(p.relative_to(DOCS / "zh").as_posix() for p in (DOCS / "zh").rglob("*.md"))


def html_path(site, lang, md_name):
    """Return the built HTML file of docs/<lang>/<md_name>."""
    stem = md_name[:-3]
    rel = Path("index.html") if stem == "index" else Path(stem) / "index.html"
    return site / rel if lang == "zh" else site / "en" / rel


def tables(html):
    """Return every table of a built page as rows of cell texts (tags stripped, entities decoded)."""
    out = []
    for table in re.findall(r"<table>(.*?)</table>", html, re.S):
        rows = []
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
            cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
            rows.append([htmllib.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in cells])
        out.append(rows)
    return out


NEW_PLOT = re.compile(r'Plotly\.newPlot\(\s*"([^"]+)",\s*')
BETWEEN_ARGS = re.compile(r"\s*,?\s*")


def page_figures(html):
    """Return {div id: [data, layout, config]} of every Plotly.newPlot call in a built page."""
    figures, decode = {}, json.JSONDecoder().raw_decode
    for m in NEW_PLOT.finditer(html):
        args, pos = [], m.end()
        for _ in range(3):
            value, pos = decode(html, pos)
            args.append(value)
            pos = BETWEEN_ARGS.match(html, pos).end()
        figures[m.group(1)] = args
    return figures


def figure_controls(layout):
    """Yield (kind, index, control, steps) for each slider, then each menu (kind: 'buttons' or 'dropdown'), of a
    figure's layout."""
    for i, slider in enumerate(layout.get("sliders", [])):
        yield "slider", i, slider, slider.get("steps", [])
    for i, menu in enumerate(layout.get("updatemenus", [])):
        yield menu.get("type", "dropdown"), i, menu, menu.get("buttons", [])


def table_rows(html):
    """Return every table row of a built page, across all its tables, as cell texts."""
    return [row for table in tables(html) for row in table]


def load_snippet(name):
    """Run docs/snippets/<name> with print silenced and return its namespace (the functions it defines)."""
    path = DOCS / "snippets" / name
    namespace = {"print": lambda *a, **k: None}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    return namespace


# ---- the session's site: one strict build with a deploy's settings, started in the background
#
# The site is built the way the deploy workflow builds it (site_url under a sub-path, a repo_url), into
# <shared>/site/root/primer/sub/, so the one build serves every site test, the browser tests at / and
# the sub-path test at <shared>/site/root/. The reproducibility build follows it into <shared>/second/.
# <shared> lies under the session's basetemp; with pytest-xdist the controller names it and the workers
# (which inherit its environment) find it. A whole-suite run starts both builds at once; otherwise the
# first process whose collected tests need one starts it, after collection. A build runs as a detached
# runner (tests/site_build.py) that writes <name>.log, then <name>.rc when done; the unit tests run
# meanwhile, and the `site` / `second_site` fixtures wait for the .rc file.

SITE_URL = "https://example.org/primer/sub/"
REPO_URL = "https://github.com/example/primer"
SUB_PATH = "primer/sub"
SHARED_ENV = "PRIMER_TEST_SHARED"
BUILDS = {"site": None, "second": "site"}   # build name -> the build it follows
BUILD_TIMEOUT = 30 * 60


def shared_dir():
    """Return the session's shared directory (the builds, and what once_per_session computed)."""
    return Path(os.environ[SHARED_ENV])


@pytest.hookimpl(trylast=True)   # after the tmpdir plugin has made its factory
def pytest_configure(config):
    """Name the session's shared directory (the xdist controller, or a run without xdist)."""
    if hasattr(config, "workerinput"):
        return
    shared = config._tmp_path_factory.getbasetemp() / "shared"   # the session's basetemp, as tmp_path_factory sees it
    shared.mkdir(exist_ok=True)
    os.environ[SHARED_ENV] = str(shared)
    config._primer_shared = shared
    option = config.option
    if (config.args_source == pytest.Config.ArgsSource.TESTPATHS and not option.markexpr and not option.keyword
            and not option.collectonly):
        start_build("second")   # the whole suite (`make test`): both builds, now rather than after collection


def pytest_unconfigure(config):
    """Stop a build still running when the session ends early (Ctrl-C, -x): it would only waste the cores."""
    shared = getattr(config, "_primer_shared", None)
    if shared is None:
        return
    for name in BUILDS:
        pid_file, rc_file = shared / f"{name}.pid", shared / f"{name}.rc"
        if pid_file.exists() and not rc_file.exists():
            try:
                os.killpg(int(pid_file.read_text()), signal.SIGTERM)   # the runner leads its own process group
            except (ProcessLookupError, ValueError):
                pass


def start_build(name):
    """Start build `name` (and the one it follows) unless some process of this session already did."""
    if BUILDS[name]:
        start_build(BUILDS[name])
    shared = shared_dir()
    try:
        os.close(os.open(shared / f"{name}.started", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        return
    env = {k: v for k, v in os.environ.items() if k not in ("PRIMER_CHECK_LINKS", "SOURCE_DATE_EPOCH")}
    env.update(NO_MKDOCS_2_WARNING="1", PRIMER_SITE_URL=SITE_URL, PRIMER_REPO_URL=REPO_URL)
    if BUILDS[name]:   # a build that only has to equal the one it follows: the links were checked there (a few CPU s);
        env["PRIMER_CHECK_LINKS"] = "false"   # the checker writes nothing, so the files are the same either way
    after = [str(shared / f"{BUILDS[name]}.rc")] if BUILDS[name] else []
    proc = subprocess.Popen([sys.executable, str(ROOT / "tests" / "site_build.py"), str(shared / name / "root" / SUB_PATH),
                             str(shared / f"{name}.log"), str(shared / f"{name}.rc"), *after],
                            cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    (shared / f"{name}.pid").write_text(str(proc.pid))


def wait_for_build(name):
    """Return the directory of build `name` once it has finished; fail with its log if it failed."""
    start_build(name)
    shared = shared_dir()
    rc_file, deadline = shared / f"{name}.rc", time.monotonic() + BUILD_TIMEOUT
    while not rc_file.exists():
        if time.monotonic() > deadline or not runner_alive(shared / f"{name}.pid"):
            if rc_file.exists():   # it wrote its exit code just before it ended
                break
            log = shared / f"{name}.log"
            pytest.fail(f"the {name} build ended without an exit code or took over {BUILD_TIMEOUT} s; its log, {log}:\n"
                        + (log.read_text(encoding="utf-8", errors="replace")[-12000:] if log.exists() else "(none)"),
                        pytrace=False)
        time.sleep(0.2)
    rc = int(rc_file.read_text())
    if rc != 0:
        log = (shared / f"{name}.log").read_text(encoding="utf-8", errors="replace")
        pytest.fail(f"strict build ({name}) failed with exit code {rc}:\n{log[-12000:]}", pytrace=False)
    return shared / name / "root" / SUB_PATH


def runner_alive(pid_file):
    """Whether the build runner whose pid is in pid_file still runs (not yet written: it is being started)."""
    try:
        pid = int(pid_file.read_text())
    except (FileNotFoundError, ValueError):
        return True
    if not os.path.isdir("/proc/self"):   # no /proc: ask the process itself
        try:
            os.kill(pid, 0)
            return True
        except ProcessLookupError:
            return False
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
            return f.read().rsplit(")", 1)[1].split()[0] != "Z"   # a zombie has ended
    except FileNotFoundError:
        return False


def pytest_collection_finish(session):
    """Start the builds the selected tests need as soon as they are known, so the unit tests overlap them."""
    if session.config.option.collectonly:
        return
    needs = {name for item in session.items for name in ("site", "second_site") if name in item.fixturenames}
    if "second_site" in needs:
        start_build("second")
    elif "site" in needs:
        start_build("site")


def once_per_session(key, compute, timeout=BUILD_TIMEOUT):
    """Return compute()'s result (JSON), computed once per test session by the first process that asks, with
    pytest-xdist or without; the others wait for it. For expensive work several tests (or workers) share."""
    done = shared_dir() / "once" / (hashlib.sha256(key.encode("utf-8")).hexdigest() + ".json")
    done.parent.mkdir(exist_ok=True)
    try:
        os.close(os.open(done.with_suffix(".claim"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
    except FileExistsError:
        deadline = time.monotonic() + timeout
        while not done.exists():
            if time.monotonic() > deadline:
                pytest.fail(f"{key[:200]!r}: claimed by another test but not done in {timeout} s", pytrace=False)
            time.sleep(0.1)
        out = json.loads(done.read_text(encoding="utf-8"))
    else:
        try:
            out = {"result": compute()}
        except BaseException as err:   # the waiting tests fail with it too
            out = {"error": f"{type(err).__name__}: {err}"}
            raise
        finally:
            done.with_suffix(".tmp").write_text(json.dumps(out), encoding="utf-8")
            done.with_suffix(".tmp").replace(done)
    if "error" in out:
        pytest.fail(f"{key[:200]!r} failed in the test that ran it: {out['error']}", pytrace=False)
    return out["result"]


@pytest.fixture(scope="session")
def site():
    """Return the directory of the session's strict build (a deploy's settings, under a sub-path)."""
    return wait_for_build("site")


@pytest.fixture(scope="session")
def site_root(site):
    """Return the directory to serve at / so that the site lives at /primer/sub/, as it does deployed."""
    return site.parents[len(Path(SUB_PATH).parts) - 1]


@pytest.fixture(scope="session")
def second_site(site):
    """Return the directory of the second build of the same commit, made the same way as `site`."""
    return wait_for_build("second")


TOOLTIP = re.compile(r"</?abbr\b[^>]*>")   # hooks/terms.py wraps every term in <abbr title=...>


@pytest.fixture(scope="session")
def read_page(site):
    """Return a reader: read_page(lang, 'name.md') -> the built page's HTML, term tooltips unwrapped.

    Prose pins then read as the page reads; tests/test_glossary.py checks the tooltips on the raw file.
    """
    def read(lang, md_name):
        return TOOLTIP.sub("", html_path(site, lang, md_name).read_text(encoding="utf-8"))
    return read


def run_order(item):
    """Tests that need no build first (they run while the site builds), then the site's, the browser's, and
    last the ones that need the second build."""
    if "second_site" in item.fixturenames:
        return 3
    if item.get_closest_marker("browser"):
        return 2
    return 1 if "site" in item.fixturenames else 0


def pytest_collection_modifyitems(config, items):
    """Mark each test by kind: browser (drives Chromium), site (reads the built site), or unit (everything
    else); then order them for the two cores (run_order)."""
    for item in items:
        if item.module.__name__ == "test_browser":
            item.add_marker(pytest.mark.browser)
        elif SITE_FIXTURES & set(item.fixturenames) or item.module.__name__ in SITE_MODULES:
            item.add_marker(pytest.mark.site)
        else:
            item.add_marker(pytest.mark.unit)
    items.sort(key=run_order)   # stable: the file order within each rank

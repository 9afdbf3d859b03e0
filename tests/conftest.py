"""Shared readers of the built pages, and the session's strict builds of the site (each made once per run)."""

import html as htmllib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock
from hypothesis import settings

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LANGS = ("zh", "en")
# The session's site is built as the deploy builds it: under a sub-path of its address, with a repository link.
SITE_URL = "https://example.org/primer/sub/"
REPO_URL = "https://github.com/example/primer"
SUB_PATH = "primer/sub"

# No deadline: hypothesis would fail a test that runs slowly on a loaded machine, and the tests time nothing.
# `make check` draws fewer examples a property, for a quick edit loop.
settings.register_profile("full", deadline=None)
settings.register_profile("quick", deadline=None, max_examples=15)
settings.load_profile("full")

pytest_plugins = ["browser_util"]  # the browser fixtures, for the test files that drive chromium


def page_names():
    """Return the Markdown pages of the zh side, as paths relative to docs/zh."""
    return sorted(p.relative_to(DOCS / "zh").as_posix() for p in (DOCS / "zh").rglob("*.md"))


def notebook_names():
    """Return the notebook pages of the zh side (mkdocs-jupyter renders each), as paths relative to docs/zh."""
    return sorted(p.relative_to(DOCS / "zh").as_posix() for p in (DOCS / "zh").rglob("*.ipynb"))


def html_path(site, lang, md_name):
    """Return the built HTML file of docs/<lang>/<md_name> (a .md page or an .ipynb notebook)."""
    stem = Path(md_name).with_suffix("")
    rel = Path("index.html") if stem.as_posix() == "index" else stem / "index.html"
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


def table_rows(html):
    """Return every table row of a built page, across all its tables, as cell texts."""
    return [row for table in tables(html) for row in table]


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


def load_snippet(name):
    """Run docs/snippets/<name> with print silenced and return its namespace (the functions it defines)."""
    path = DOCS / "snippets" / name
    namespace = {"print": lambda *a, **k: None}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    return namespace


# ---- the session's builds: pytest-xdist's "session-scoped fixture executed only once" (a FileLock in the run's
# shared temporary directory): the first worker to ask builds, the others wait on the lock and read its result.


def build_once(tmp_path_factory, worker_id, name):
    """Build the site strictly, with a deploy's settings, into <shared>/<name>/primer/sub once per run; return it."""
    base = tmp_path_factory.getbasetemp()
    shared = base if worker_id == "master" else base.parent  # worker_id: xdist's fixture ('master': no workers)
    root, log, rc = shared / name, shared / f"{name}.log", shared / f"{name}.rc"
    with FileLock(str(shared / f"{name}.lock")):
        if not rc.exists():
            env = {k: v for k, v in os.environ.items() if k not in ("PRIMER_CHECK_LINKS", "SOURCE_DATE_EPOCH")}
            env.update(NO_MKDOCS_2_WARNING="1", PRIMER_SITE_URL=SITE_URL, PRIMER_REPO_URL=REPO_URL)
            with open(log, "w", encoding="utf-8") as out:
                code = subprocess.run(
                    [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(root / SUB_PATH)],
                    cwd=ROOT,
                    env=env,
                    stdin=subprocess.DEVNULL,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                ).returncode
            rc.write_text(str(code))
    if rc.read_text() != "0":
        pytest.fail(
            f"strict build ({name}) failed; the end of {log}:\n"
            + log.read_text(encoding="utf-8", errors="replace")[-12000:],
            pytrace=False,
        )
    return root / SUB_PATH


@pytest.fixture(scope="session")
def site(tmp_path_factory, worker_id):
    """Return the directory of the session's strict build (a deploy's settings, under a sub-path)."""
    return build_once(tmp_path_factory, worker_id, "site")


@pytest.fixture(scope="session")
def site_root(site):
    """Return the directory to serve at / so that the site lives at /primer/sub/, as it does deployed."""
    return site.parents[len(Path(SUB_PATH).parts) - 1]


@pytest.fixture(scope="session")
def second_site(site, tmp_path_factory, worker_id):
    """Return the directory of a second build of the same commit, made the same way as `site`, after it."""
    return build_once(tmp_path_factory, worker_id, "second")


TOOLTIP = re.compile(r"</?abbr\b[^>]*>")  # a term's tooltip wraps it in <abbr title=...>


@pytest.fixture(scope="session")
def read_page(site):
    """Return a reader: read_page(lang, 'name.md') -> the built page's HTML, term tooltips unwrapped, so that prose
    pins read as the page reads (tests/test_glossary.py checks the tooltips on the raw file)."""

    def read(lang, md_name):
        return TOOLTIP.sub("", html_path(site, lang, md_name).read_text(encoding="utf-8"))

    return read


# Modules that build or render on their own, without asking for the session's site.
SITE_MODULES = {"test_build", "test_plotly_bundle"}


def pytest_collection_modifyitems(config, items):
    """Mark each test by kind (a module may mark its own): browser (drives chromium), site (builds the site or reads
    it) or unit (`make check`); run those that need no build first, while a worker builds, and the browser's last,
    so that the second build overlaps them."""
    for item in items:
        if item.get_closest_marker("browser") or item.get_closest_marker("site"):
            continue
        if {"site", "read_page", "second_site"} & set(item.fixturenames) or item.module.__name__ in SITE_MODULES:
            item.add_marker(pytest.mark.site)
        else:
            item.add_marker(pytest.mark.unit)
    rank = lambda item: (
        3
        if item.get_closest_marker("browser")
        else 2
        if "second_site" in item.fixturenames  # noqa: E731
        else 1
        if item.get_closest_marker("site")
        else 0
    )
    items.sort(key=rank)  # stable: the file order within each rank

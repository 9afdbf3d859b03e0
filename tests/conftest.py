"""Shared fixtures: one strict build of the whole site per test session, and page readers over it."""

import html as htmllib
import os
import re
import subprocess
import sys
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

SITE_FIXTURES = {"site", "read_page"}   # a test that asks for these reads the built site
SITE_MODULES = {"test_build", "test_plotly_bundle"}   # scratch builds; the vendored plotly.js against the installed plotly
DOCS = ROOT / "docs"
LANGS = ("zh", "en")


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


def table_rows(html):
    """Return every table row of a built page, across all its tables, as cell texts."""
    return [row for table in tables(html) for row in table]


def load_snippet(name):
    """Run docs/snippets/<name> with print silenced and return its namespace (the functions it defines)."""
    path = DOCS / "snippets" / name
    namespace = {"print": lambda *a, **k: None}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    return namespace


def build_site(out):
    """Build the whole site with --strict into out; a warning fails the build."""
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    proc = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)],
                          cwd=ROOT, env=env, capture_output=True, text=True)
    assert proc.returncode == 0, "strict build failed:\n" + proc.stdout[-4000:] + proc.stderr[-8000:]
    return out


@pytest.fixture(scope="session")
def site(tmp_path_factory):
    """Build the site once per test session and return its directory."""
    return build_site(tmp_path_factory.mktemp("site"))


TOOLTIP = re.compile(r"</?abbr\b[^>]*>")   # hooks/terms.py wraps every term in <abbr title=...>


@pytest.fixture(scope="session")
def read_page(site):
    """Return a reader: read_page(lang, 'name.md') -> the built page's HTML, term tooltips unwrapped.

    Prose pins then read as the page reads; tests/test_glossary.py checks the tooltips on the raw file.
    """
    def read(lang, md_name):
        return TOOLTIP.sub("", html_path(site, lang, md_name).read_text(encoding="utf-8"))
    return read


def pytest_collection_modifyitems(config, items):
    """Mark each test by kind: browser (drives Chromium), site (reads the built site), or unit (everything else)."""
    for item in items:
        if item.module.__name__ == "test_browser":
            item.add_marker(pytest.mark.browser)
        elif SITE_FIXTURES & set(item.fixturenames) or item.module.__name__ in SITE_MODULES:
            item.add_marker(pytest.mark.site)
        else:
            item.add_marker(pytest.mark.unit)

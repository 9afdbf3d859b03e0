"""The session's strict builds of the site (each made once per run), the page reader over it, and the test marks.

The readers the tests share live in tests/site_reader.py."""

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock
from hypothesis import settings
from site_reader import REPO_URL, ROOT, SITE_URL, SUB_PATH, html_path

# No deadline: hypothesis would fail a test that runs slowly on a loaded machine, and the tests time nothing.
# `make check` draws fewer examples a property, for a quick edit loop.
settings.register_profile("full", deadline=None)
settings.register_profile("quick", deadline=None, max_examples=15)
settings.load_profile("full")

pytest_plugins = ["browser_util"]  # the browser fixtures, for the test files that drive chromium


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


REQUIRE_TORCH = "PRIMER_REQUIRE_TORCH"  # "1" (`make test`, CI): a missing torch fails the run instead of skipping
HAS_TORCH = importlib.util.find_spec("torch") is not None


def pytest_sessionstart(session):
    """Fail the run at once when it requires torch (`make test`) and torch is not installed."""
    if os.environ.get(REQUIRE_TORCH) == "1" and not HAS_TORCH:
        raise pytest.UsageError(f"{REQUIRE_TORCH}=1 and torch is not installed: `make test` installs it")


def pytest_terminal_summary(terminalreporter):
    """Say that the PyTorch comparisons were skipped when torch is missing (`make check` never installs it)."""
    if not HAS_TORCH:
        terminalreporter.write_line(
            "torch is not installed: the tests against PyTorch were skipped (`make test` installs torch and runs them)",
            yellow=True,
        )


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "slow: tests that start another program (a Jupyter kernel, node, a fresh Python per snippet) or load the "
        "site's whole config; `make test` runs them, `make check` does not",
    )


def pytest_collection_modifyitems(config, items):
    """Mark each test by kind (a module may mark its own): browser (drives chromium), site (builds the site or reads
    it), slow (marked by hand: see pytest_configure) or unit (`make check`); run those that need no build first,
    while a worker builds, and the browser's last, so that the second build overlaps them."""
    for item in items:
        if any(item.get_closest_marker(kind) for kind in ("browser", "site", "slow")):
            continue
        if {"site", "read_page", "second_site"} & set(item.fixturenames) or item.module.__name__ in SITE_MODULES:
            item.add_marker(pytest.mark.site)
        else:
            item.add_marker(pytest.mark.unit)

    def rank(item):
        if item.get_closest_marker("browser"):
            return 3
        if "second_site" in item.fixturenames:
            return 2
        return 1 if item.get_closest_marker("site") else 0

    items.sort(key=rank)  # stable: the file order within each rank


@pytest.fixture(scope="module")
def sub_path_url(site, tmp_path_factory):
    """Serve the site under a sub-path (as deployed), from a folder linking to it (the runner's browser tests)."""
    from browser_util import serve

    root = tmp_path_factory.mktemp("served")
    (root / "primer").mkdir()
    (root / "primer" / "sub").symlink_to(site, target_is_directory=True)
    with serve(root) as url:
        yield url + "primer/sub/"

"""The exec cache of `mkdocs serve`: never stale, never used by a build, outside docs/ and site/, safe twice at once."""

import importlib.util
import os
import re
import sys
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from conftest import ROOT

spec = importlib.util.spec_from_file_location("primer_build_hook", ROOT / "hooks" / "primer_build.py")
hook = importlib.util.module_from_spec(spec)
sys.path.insert(0, str(ROOT / "hooks"))   # as MkDocs loads a hook: its folder importable (hooks/primer_sources.py)
try:
    spec.loader.exec_module(hook)
finally:
    sys.path.pop(0)

CODE = "from primer.answer import VALUE\nprint(VALUE)\n"


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A tiny repository: mkdocs.yml, primer/answer.py, one snippet; the cache directory left to default."""
    (tmp_path / "primer").mkdir()
    (tmp_path / "primer" / "answer.py").write_text("VALUE = 1\n")
    (tmp_path / "docs" / "snippets").mkdir(parents=True)
    (tmp_path / "docs" / "snippets" / "data.txt").write_text("a\n")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    monkeypatch.delenv(hook.CACHE_ENV, raising=False)
    return tmp_path


class Config(dict):
    """The few parts of MkDocs' config the hook reads, as attributes and as keys."""

    __getattr__ = dict.get


def config(repo):
    return Config(config_file_path=str(repo / "mkdocs.yml"), docs_dir=str(repo / "docs"), site_dir=str(repo / "site"),
                  plugins={})


@pytest.fixture
def runner(repo, monkeypatch):
    """markdown-exec's runner replaced by one that counts runs and prints primer.answer.VALUE read from disk."""
    mx = hook._python_formatter()
    formatters = hook._formatters()
    for name in ("python", "py"):   # install_runner wraps these: put the originals back after the test
        monkeypatch.setitem(formatters, name, formatters[name])
    runs = []

    def run(code, returncode=None, session=None, id=None, **extra):  # noqa: A002
        runs.append(code)
        if "raise" in code:
            raise RuntimeError("block failed")
        value = (repo / "primer" / "answer.py").read_text().splitlines()[0].split("=")[1].strip()
        return f"{value} {(repo / 'docs' / 'snippets' / 'data.txt').read_text().strip()}\n"

    monkeypatch.setenv("PRIMER_LANG", "en")
    monkeypatch.setattr(mx, "_run_python", run)      # restored after the test: nothing leaks into other tests
    monkeypatch.setattr(hook.primer_sources.importlib.util, "find_spec", lambda name: SimpleNamespace(origin=str(repo / "primer" / "__init__.py")))
    return SimpleNamespace(runs=runs, mx=mx)


def serve_build(repo, lang="en", code=CODE):
    """One rebuild as `mkdocs serve` does it: a fresh config, pre-build, then the block runs."""
    cache = hook.active_cache()
    cache.configure(config(repo))
    cache.start_build()
    os.environ["PRIMER_LANG"] = lang      # as on_page_markdown sets it; the runner fixture restores it
    return hook._python_formatter()._run_python(code)


def start_serving(repo):
    hook.on_startup(command="serve", dirty=False)
    hook.active_cache().configure(config(repo))


def test_a_build_never_uses_the_cache(repo, runner):
    hook.on_startup(command="build", dirty=False)
    assert hook.active_cache() is None
    run = runner.mx._run_python
    assert run(CODE) == run(CODE) and len(runner.runs) == 2   # every block runs, every time


def test_serve_answers_an_unchanged_block_from_the_cache(repo, runner):
    start_serving(repo)
    assert serve_build(repo) == "1 a\n"
    assert serve_build(repo) == "1 a\n"
    assert len(runner.runs) == 1
    assert list((repo / ".cache" / "exec").rglob("*.out")), "the default cache lives in .cache/exec"


@pytest.mark.parametrize("edit", ["primer", "snippet", "code", "lang", "numpy", "plotly"])
def test_every_input_of_a_block_changes_its_output_never_a_stale_one(repo, runner, monkeypatch, edit):
    start_serving(repo)
    assert serve_build(repo) == "1 a\n"
    lang, code = "en", CODE
    if edit == "primer":
        (repo / "primer" / "answer.py").write_text("VALUE = 2\n")
    elif edit == "snippet":
        (repo / "docs" / "snippets" / "data.txt").write_text("b\n")
    elif edit == "code":
        code = CODE + "# an edited line\n"
    elif edit == "lang":
        lang = "zh"
    else:
        real = hook.versions()
        monkeypatch.setattr(hook, "versions", lambda: dict(real, **{edit: "0.0.1"}))
    out = serve_build(repo, lang, code)
    assert len(runner.runs) == 2, f"an edit to {edit} must run the block again"
    assert out == {"primer": "2 a\n", "snippet": "1 b\n"}.get(edit, "1 a\n")


def test_an_edit_reverted_serves_the_first_output_again(repo, runner):
    start_serving(repo)
    serve_build(repo)
    (repo / "primer" / "answer.py").write_text("VALUE = 2\n")
    assert serve_build(repo) == "2 a\n"
    (repo / "primer" / "answer.py").write_text("VALUE = 1\n")
    assert serve_build(repo) == "1 a\n" and len(runner.runs) == 2


def test_a_source_edited_during_a_build_is_not_stored(repo, runner):
    start_serving(repo)
    cache = hook.active_cache()
    cache.start_build()
    (repo / "primer" / "answer.py").write_text("VALUE = 22\n")   # the edit lands while blocks run
    hook._python_formatter()._run_python(CODE)
    assert not list((repo / ".cache").rglob("*.out"))


def test_a_failing_block_is_never_stored(repo, runner):
    start_serving(repo)
    with pytest.raises(RuntimeError):
        serve_build(repo, code="raise SystemExit\n")
    assert not list((repo / ".cache").rglob("*.out"))


def test_a_session_block_always_runs(repo, runner):
    start_serving(repo)
    hook.active_cache().start_build()
    run = hook._python_formatter()._run_python
    run(CODE, session="s"), run(CODE, session="s")
    assert len(runner.runs) == 2


@pytest.mark.parametrize("inside", ["docs", "site", "docs/cache"])
def test_the_cache_must_lie_outside_docs_and_site(repo, monkeypatch, inside):
    monkeypatch.setenv(hook.CACHE_ENV, str(repo / inside))
    with pytest.raises(ValueError, match="outside docs/ and site/"):
        hook.ExecCache().configure(config(repo))


def test_two_builds_at_once_read_whole_entries_only(repo, runner):
    """Writers racing on one key (two `mkdocs serve` of one tree): a reader sees nothing or a whole entry."""
    start_serving(repo)
    cache = hook.active_cache()
    cache.start_build()
    key = cache.key(CODE, "en")
    whole = "x" * 200_000 + "\n"
    seen, stop = set(), threading.Event()

    def write():
        while not stop.is_set():
            cache.put(key, whole)

    def read():
        for _ in range(300):
            seen.add(cache.get(key))

    writers = [threading.Thread(target=write) for _ in range(2)]
    for t in writers:
        t.start()
    read()
    stop.set()
    for t in writers:
        t.join()
    assert seen <= {None, whole}
    assert not [p for p in Path(repo / ".cache").rglob("*") if p.name.startswith(".tmp-")], "no temporary file left"


def test_serve_leaves_the_link_check_and_the_search_index_to_the_build(repo, runner, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    cfg = config(repo)
    cfg["plugins"] = {name: SimpleNamespace(config={"enabled": True}) for name in ("htmlproofer", "material/search", "i18n")}
    hook.on_startup(command="build", dirty=False)
    hook.on_config(cfg)
    assert all(p.config["enabled"] for p in cfg["plugins"].values())
    hook.on_startup(command="serve", dirty=False)
    hook.on_config(cfg)
    assert {n: p.config["enabled"] for n, p in cfg["plugins"].items()} == {
        "htmlproofer": False, "material/search": False, "i18n": True}


def test_cache_off_runs_every_block_under_serve(repo, runner, monkeypatch):
    monkeypatch.setenv(hook.CACHE_ENV, "off")
    start_serving(repo)
    hook.active_cache().start_build()
    run = hook._python_formatter()._run_python
    run(CODE), run(CODE)
    assert len(runner.runs) == 2 and not (repo / ".cache").exists()


# ---- keys by dependency: a primer edit runs again only the blocks that import what changed

def write_module(repo, name, text):
    path = repo / "primer" / f"{name}.py"
    path.write_text(text)
    return path


@pytest.mark.parametrize("edited, runs_again", [
    ("answer", True),        # imported by the block
    ("helper", True),        # imported by answer.py, inside a function: still a dependency
    ("other", False),        # imported by nothing the block imports
    ("__init__", True),      # the package's __init__ runs on every import of primer.x
    ("labels.json", True),   # a data file: modules read them without importing, so every block counts them
])
def test_a_primer_edit_runs_again_exactly_the_blocks_that_depend_on_it(repo, runner, edited, runs_again):
    (repo / "primer" / "__init__.py").write_text("")
    write_module(repo, "answer", "VALUE = 1\n\n\ndef later():\n    from primer import helper\n    return helper\n")
    write_module(repo, "helper", "X = 1\n")
    write_module(repo, "other", "Y = 1\n")
    (repo / "primer" / "labels.json").write_text("{}")
    start_serving(repo)
    assert serve_build(repo) == "1 a\n"
    if edited.endswith(".json"):
        (repo / "primer" / edited).write_text('{"a": 1}')
    else:
        with open(repo / "primer" / f"{edited}.py", "a") as f:
            f.write("# edited\n")
    serve_build(repo)
    assert len(runner.runs) == (2 if runs_again else 1), f"an edit to {edited}"


def test_primer_never_imports_a_module_by_a_computed_name():
    """The dependency graph is read from import statements (hooks/primer_sources.py): a computed import would hide an edge."""
    offenders = [p.relative_to(ROOT).as_posix() for p in (ROOT / "primer").rglob("*.py")
                 if re.search(r"\bimport_module\b|__import__|importlib", p.read_text(encoding="utf-8"))]
    assert not offenders


def test_the_graph_follows_a_chapter_block_through_primer():
    sys.path.insert(0, str(ROOT / "hooks"))
    try:
        from primer_sources import SourceGraph
    finally:
        sys.path.pop(0)
    graph = SourceGraph(ROOT / "primer")
    code = (ROOT / "docs" / "snippets" / "10-kv-cache" / "loop.py").read_text(encoding="utf-8")
    deps = graph.closure(code)
    assert {"primer", "primer.pages", "primer.pages.kv_cache", "primer.transformer", "primer.masks"} <= deps
    assert "primer.figures" not in deps and "primer.pages.mask" not in deps
    assert graph.closure("this is not python (") == set(graph.hashes)   # unparsable: counts everything


# ---- the HTML of a block: a prose edit converts nothing again

@pytest.fixture
def formatter(runner, monkeypatch):
    """markdown-exec's Python formatter replaced by one that counts conversions of the runner's output."""
    conversions = []

    def fake_format(code, md, **options):
        try:
            output = hook._python_formatter()._run_python(code)
        except RuntimeError:
            return "<p>error</p>"          # markdown-exec turns a failure into HTML (and a warning)
        conversions.append(code)
        return f"<p>{output.strip()}</p>" if "heading" not in code else f"<h2>{output.strip()}</h2>"

    for name in ("python", "py"):
        monkeypatch.setitem(hook._formatters(), name, fake_format)
    return SimpleNamespace(conversions=conversions)


def serve_format(repo, code=CODE, **options):
    cache = hook.active_cache()
    cache.configure(config(repo))
    cache.start_build()
    return hook._formatters()["python"](code=code, md=None, **options)


def test_an_unchanged_block_is_neither_run_nor_converted_again(repo, runner, formatter):
    start_serving(repo)
    assert serve_format(repo, id="a") == serve_format(repo, id="a") == "<p>1 a</p>"
    assert len(formatter.conversions) == 1 and len(runner.runs) == 1
    serve_format(repo, id="b")                      # other options: converted again, the output comes from cache
    assert len(formatter.conversions) == 2 and len(runner.runs) == 1
    (repo / "mkdocs.yml").write_text("site_name: t\nmarkdown_extensions: [toc]\n")   # other Markdown settings
    serve_format(repo, id="b")
    assert len(formatter.conversions) == 3 and len(runner.runs) == 1


def test_html_of_a_failing_block_or_with_a_heading_is_not_stored(repo, runner, formatter):
    start_serving(repo)
    assert serve_format(repo, code="raise SystemExit\n") == "<p>error</p>"
    serve_format(repo, code="raise SystemExit\n")
    assert len(runner.runs) == 2
    serve_format(repo, code=CODE + "# heading\n")
    serve_format(repo, code=CODE + "# heading\n")
    assert len(formatter.conversions) == 2 and len(runner.runs) == 3   # converted twice, run once


def test_serve_looks_for_edits_every_tenth_of_a_second():
    """MkDocs polls the watched files every 0.5 s; the hook makes it 0.1 s, on the observer and on its emitters."""
    from mkdocs.livereload import LiveReloadServer

    server = LiveReloadServer(builder=lambda: None, host="127.0.0.1", port=0, root=str(ROOT))
    try:
        server.watch(str(ROOT / "docs" / "snippets"))            # watched before the hook runs, as docs/ is
        assert hook.on_serve(server, config={}, builder=None) is server
        server.watch(str(ROOT / "hooks"))                        # and after, as mkdocs.yml's watch: list is
        assert server.observer.timeout == hook.POLL_S
        assert [e.timeout for e in server.observer.emitters] == [hook.POLL_S] * 2
    finally:
        server.server_close()

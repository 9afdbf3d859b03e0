"""The exec cache of `mkdocs serve` (hooks/exec_cache.py, primer_site/exec_format.py): a prose edit runs nothing."""

import logging
import re
import textwrap
from types import SimpleNamespace

import markdown
import markdown_exec
import pytest
from hook_loader import load_hook
from site_reader import ROOT

from primer_site import exec_format, primer_sources

hook = load_hook("exec_cache")
# The block appends a line to RUNS each time it runs; `if False: import primer.answer` is never executed but the
# dependency graph reads it, so the block depends on primer/answer.py as a real block on what it imports.
BLOCK = (
    '```python exec="1" id="{id}"\nif False:\n    import primer.answer\n'
    'open({runs!r}, "a").write("x\\n")\nprint("out {id}")\n```\n'
)


@pytest.fixture
def repo(tmp_path, monkeypatch):
    """A tiny repository: mkdocs.yml, a primer package (answer.py, other.py), a snippet data file; the cache on."""
    (tmp_path / "primer").mkdir()
    for name in ("__init__", "answer", "other"):
        (tmp_path / "primer" / f"{name}.py").write_text("VALUE = 1\n")
    (tmp_path / "docs" / "snippets").mkdir(parents=True)
    (tmp_path / "docs" / "snippets" / "data.txt").write_text("a\n")
    (tmp_path / "mkdocs.yml").write_text("site_name: t\n")
    monkeypatch.setenv(hook.CACHE_ENV, "")  # as on_startup sets it under `mkdocs serve`: the default directory
    monkeypatch.setenv("PRIMER_LANG", "en")
    yield SimpleNamespace(root=tmp_path, runs=tmp_path / "runs.txt")
    exec_format.STATE.clear()


def config(root):
    return SimpleNamespace(
        config_file_path=str(root / "mkdocs.yml"), docs_dir=str(root / "docs"), site_dir=str(root / "site")
    )


def build(repo, text):
    """One rebuild: pre-build, then the page converted with the python fence mkdocs.yml declares; its HTML."""
    hook.on_pre_build(config(repo.root))
    fence = {
        "name": "python",
        "class": "python",
        "validator": markdown_exec.validator,
        "format": exec_format.cached_format,
    }
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"], extension_configs={"pymdownx.superfences": {"custom_fences": [fence]}}
    )
    return md.convert(textwrap.dedent(text))


def runs(repo):
    return len(repo.runs.read_text().splitlines()) if repo.runs.exists() else 0


def page(repo, prose="Some prose.", block_id="a"):
    return f"# Page\n\n{prose}\n\n" + BLOCK.format(id=block_id, runs=str(repo.runs))


def test_a_prose_edit_runs_no_block_and_gives_the_same_html(repo):
    first = build(repo, page(repo))
    again = build(repo, page(repo, prose="Other prose, same block."))
    assert runs(repo) == 1 and "out a" in first
    assert re.search(r"<p>out a</p>", again)
    assert list((repo.root / ".cache" / "exec").rglob("*.html")), "the default cache lives in .cache/exec"


@pytest.mark.parametrize(
    "edit, runs_again",
    [
        ("primer/answer.py", True),  # imported by the block
        ("primer/__init__.py", True),  # runs on every import of primer.x
        ("primer/other.py", False),  # imported by nothing the block imports
        ("primer/labels.json", True),  # a data file: modules read them without importing them
        ("docs/snippets/data.txt", True),
        ("mkdocs.yml", True),  # the Markdown extensions that convert the output
        ("lang", True),
        ("code", True),
        ("id", True),
        ("numpy", True),
    ],
)
def test_an_edit_to_an_input_runs_the_block_again_exactly_when_it_depends_on_it(repo, monkeypatch, edit, runs_again):
    build(repo, page(repo))
    text = page(repo, block_id="b" if edit == "id" else "a")
    if edit == "lang":
        monkeypatch.setenv("PRIMER_LANG", "zh")
    elif edit == "numpy":
        real = hook.versions()
        monkeypatch.setattr(hook, "versions", lambda: dict(real, numpy="0.0.1"))
    elif edit == "code":
        text = text.replace('print("out', 'print( "out')
    elif edit != "id":
        with open(repo.root / edit, "a") as f:
            f.write("\n# edited\n")
    build(repo, text)
    assert runs(repo) == (2 if runs_again else 1), edit


def test_a_failing_block_is_never_stored_and_reported_each_time(repo, caplog):
    failing = page(repo).replace('print("out a")', 'raise RuntimeError("planted")')
    for _ in range(2):
        with caplog.at_level(logging.WARNING):
            build(repo, failing)
    assert runs(repo) == 2
    assert sum("planted" in r.getMessage() for r in caplog.records) == 2


@pytest.mark.parametrize("change", ["session", "heading", "no id"])
def test_blocks_with_shared_state_headings_or_no_id_always_run(repo, change):
    text = {
        "session": page(repo).replace('id="a"', 'id="a" session="s"'),
        "heading": page(repo).replace('print("out a")', 'print("## out a")'),
        "no id": page(repo).replace(' id="a"', ""),
    }[change]
    build(repo, text)
    build(repo, text)
    assert runs(repo) == 2


def test_an_edit_while_the_build_runs_is_not_stored(repo):
    hook.on_pre_build(config(repo.root))
    (repo.root / "primer" / "answer.py").write_text("VALUE = 2\n")  # lands while the blocks run
    md = markdown.Markdown(
        extensions=["pymdownx.superfences"],
        extension_configs={
            "pymdownx.superfences": {
                "custom_fences": [
                    {
                        "name": "python",
                        "class": "python",
                        "validator": markdown_exec.validator,
                        "format": exec_format.cached_format,
                    }
                ]
            }
        },
    )
    md.convert(page(repo))
    assert not list((repo.root / ".cache").rglob("*.html"))


def test_a_build_runs_every_block(repo, monkeypatch):
    monkeypatch.delenv(hook.CACHE_ENV)  # `mkdocs build`: on_startup leaves it unset
    build(repo, page(repo))
    build(repo, page(repo))
    assert runs(repo) == 2 and not (repo.root / ".cache").exists()


@pytest.mark.parametrize("inside", ["docs", "site", "docs/cache"])
def test_the_cache_must_lie_outside_docs_and_site(repo, monkeypatch, inside):
    monkeypatch.setenv(hook.CACHE_ENV, str(repo.root / inside))
    with pytest.raises(ValueError, match="outside docs/ and site/"):
        hook.on_pre_build(config(repo.root))


@pytest.mark.slow  # loads the site's config with every plugin
def test_the_site_config_hands_the_python_fence_to_the_cache():
    """markdown-exec's documented custom fence, declared in mkdocs.yml: its validator, the cache's format; no other."""
    from mkdocs.config import load_config

    cfg = load_config(str(ROOT / "mkdocs.yml"))
    cfg.plugins["markdown-exec"].on_config(cfg)  # registers no fence of its own (languages: [])
    fences = cfg.mdx_configs["pymdownx.superfences"]["custom_fences"]
    assert [(f["validator"], f["format"]) for f in fences] == [(markdown_exec.validator, exec_format.cached_format)]
    # what markdown-exec converts a block's Markdown output with: the site's extensions, this fence included
    assert markdown_exec.markdown_config.exts_config["pymdownx.superfences"]["custom_fences"] == fences


def test_primer_never_imports_a_module_by_a_computed_name():
    """The dependency graph is read from import statements: a computed import would hide an edge."""
    offenders = [
        p.relative_to(ROOT).as_posix()
        for p in (ROOT / "primer").rglob("*.py")
        if re.search(r"\bimport_module\b|__import__|importlib", p.read_text(encoding="utf-8"))
    ]
    assert not offenders


def test_the_graph_follows_the_chapter_blocks_through_primer():
    graph = primer_sources.SourceGraph(ROOT / "primer")
    closures = [graph.closure(p.read_text(encoding="utf-8")) for p in (ROOT / "docs" / "snippets").rglob("*.py")]
    importing = [deps for deps in closures if deps]
    assert importing and all("primer" in deps for deps in importing)  # the package's __init__ runs first
    assert min(map(len, importing)) < len(graph.hashes), "some block depends on part of primer only"
    assert graph.closure("this is not python (") == set(graph.hashes)  # unparsable: counts everything


def test_an_edit_reimports_the_module_and_its_importers_only(repo):
    """hooks/fresh_primer.py drops from sys.modules what SourceGraph.stale returns; the rest keeps its state."""
    sources = primer_sources
    (repo.root / "primer" / "user.py").write_text("from primer import answer\n")
    before = sources.SourceGraph(repo.root / "primer")

    def stale_after(path, text):
        (repo.root / "primer" / path).write_text(text)
        return sources.SourceGraph(repo.root / "primer").stale(before)

    assert before.stale(None) == {"primer", "primer.answer", "primer.other", "primer.user"}
    assert before.stale(before) == set()
    assert stale_after("answer.py", "VALUE = 2\n") == {"primer.answer", "primer.user"}
    assert stale_after("answer.py", "VALUE = 1\n") == set()  # back as it was
    assert stale_after("other.py", "VALUE = 3\n") == {"primer.other"}
    assert stale_after("__init__.py", "VALUE = 4\n") == {"primer", "primer.answer", "primer.other", "primer.user"}
    (repo.root / "primer" / "__init__.py").write_text("VALUE = 1\n")
    assert stale_after("labels.json", "{}") == {"primer", "primer.answer", "primer.other", "primer.user"}

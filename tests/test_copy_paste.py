"""A reader copies any Python block off a built page and runs it: it must work.

The code is taken from the built HTML, exactly what a reader sees and the copy button copies: the sources of executed
blocks and plain python blocks. The HTML carries no language, so each block is matched to its fence in the page's
Markdown (--8<-- snippets expanded) to learn whether it is Python, executed, in which markdown-exec session, and
whether it is a fragment (```{.python .fragment}: skipped). Blocks sharing a `session=` run together, in page order;
every other block runs alone. Each program runs as `python pasted.py` in an empty directory with only PATH in its
environment (a reader's shell sets no PRIMER_LANG), and fails if it does not end within PASTE_TIMEOUT_S.
"""

import ast
import sys

import pytest
from pasted import classified_blocks, html_blocks, markdown_fences, normalize, programs, run_pasted
from site_reader import DOCS, LANGS, html_path, page_names


@pytest.mark.parametrize("name", page_names())
def test_every_python_block_on_the_page_runs_as_pasted(site, tmp_path, name):
    """Both languages of the page; a program both show alike (most: they differ in comments at most) runs once."""
    progs = {}
    for lang in LANGS:
        for code, where in programs(
            html_path(site, lang, name).read_text(encoding="utf-8"), (DOCS / lang / name).read_text(encoding="utf-8")
        ).items():
            progs.setdefault(code, f"{lang}/{name} {where}")
    failures = []
    for n, (code, where) in enumerate(progs.items()):
        (tmp_path / str(n)).mkdir()
        run = run_pasted(code, tmp_path / str(n))
        if run.returncode != 0:
            failures.append(f"{where} exited {run.returncode}:\n{code[:1500]}\n--- stderr ---\n{run.stderr[-2500:]}")
    assert not failures, "\n\n".join(failures)


def test_a_pasted_program_that_never_ends_fails_its_test(tmp_path):
    with pytest.raises(pytest.fail.Exception, match="did not end within 1 s"):
        run_pasted("import time\ntime.sleep(60)\n", tmp_path, timeout=1)


@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("lang", LANGS)
def test_every_visible_python_fence_is_found_on_the_built_page_with_its_fragment_mark(site, lang, name):
    """What the paste test runs is complete: no Python block the Markdown shows is missed on the page."""
    markdown = (DOCS / lang / name).read_text(encoding="utf-8")
    blocks = classified_blocks(html_path(site, lang, name).read_text(encoding="utf-8"), markdown)
    found = {f.shown: b for b, f in blocks if f is not None}
    problems = []
    for fence in (f for f in markdown_fences(markdown) if f.visible_python):
        block = found.get(fence.shown)
        if block is None:
            problems.append(f"line {fence.line}: python block not found on the built page:\n{fence.shown[:300]}")
        elif ("fragment" in block.classes) != ("fragment" in fence.classes):
            problems.append(f"line {fence.line}: fragment mark {'fragment' in fence.classes} in Markdown, not in HTML")
    assert not problems, f"{lang}/{name}:\n" + "\n".join(problems)


def imported_modules(source):
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            yield from (a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield (node.module or "").split(".")[0] if node.level == 0 else "."


CORES = sorted(p.relative_to(DOCS / "snippets").as_posix() for p in (DOCS / "snippets").glob("*/core_numpy.py"))


@pytest.mark.parametrize("core", CORES)
def test_each_numpy_core_is_self_contained_and_shown_whole_on_both_pages_of_its_chapter(site, core):
    """A chapter's copy-and-take-away core (docs/snippets/<chapter>/core_numpy.py) needs numpy only."""
    source = (DOCS / "snippets" / core).read_text(encoding="utf-8")
    modules = set(imported_modules(source))
    assert modules <= {"numpy"} | set(sys.stdlib_module_names), f"{core} imports {sorted(modules)}; numpy only"
    assert any(isinstance(n, ast.FunctionDef) for n in ast.parse(source).body), f"{core} defines no function"
    for lang in LANGS:
        page = html_path(site, lang, core.split("/")[0] + ".md")
        assert normalize(source) in [normalize(b.text) for b in html_blocks(page.read_text(encoding="utf-8"))], (
            f"{core} is not shown whole on {lang}/{page.parent.name}"
        )


def test_the_chapters_have_numpy_cores():
    assert CORES, "no docs/snippets/*/core_numpy.py found: the core test would check nothing"

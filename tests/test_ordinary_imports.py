"""Imports the ordinary way: nothing edits sys.path, no test module imports another, bench/ imports none of tests/."""

import ast

import pytest
from site_reader import ROOT

FOLDERS = ("primer", "primer_site", "hooks", "tests", "bench", "tools", ".ci")
HELPERS = {p.stem for p in (ROOT / "tests").rglob("*.py")}  # test modules, conftest and the tests' helper modules


def sources():
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*.py")):
            if "node_modules" not in path.parts:
                yield path


def imported_names(tree):
    """Return the top-level names of every module tree imports (module level and inside functions)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names


def sys_path_edits(tree):
    """Return the lines where tree changes sys.path (a call on it, or an assignment to it or its items)."""

    def is_sys_path(node):
        return isinstance(node, ast.Attribute) and node.attr == "path" and ast.unparse(node.value) == "sys"

    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and is_sys_path(node.func.value):
            lines.append(node.lineno)
        targets = node.targets if isinstance(node, ast.Assign) else [getattr(node, "target", None)]
        for t in targets:
            if is_sys_path(t) or (isinstance(t, ast.Subscript) and is_sys_path(t.value)):
                lines.append(node.lineno)
    return lines


@pytest.mark.parametrize("path", list(sources()), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_module_imports_the_ordinary_way(path):
    tree = ast.parse(path.read_text(encoding="utf-8"))
    where = path.relative_to(ROOT).as_posix()
    assert not sys_path_edits(tree), f"{where} edits sys.path at lines {sys_path_edits(tree)}"
    names = imported_names(tree)
    if where.startswith("tests/"):
        assert not {n for n in names if n.startswith("test_") or n == "conftest"}, f"{where} imports a test module"
    if where.startswith("bench/"):
        assert not names & HELPERS, f"{where} imports from tests/: {names & HELPERS}"


def test_the_import_checks_can_fail():
    planted = ast.parse(
        "import sys\nsys.path.insert(0, 'x')\nsys.path[:] = []\nsys.path = ['a']\n"
        "def f():\n    from test_copy_paste import run_pasted\n    import site_reader\n"
    )
    assert sorted(sys_path_edits(planted)) == [2, 3, 4]
    assert {"test_copy_paste", "site_reader"} <= imported_names(planted) and "site_reader" in HELPERS

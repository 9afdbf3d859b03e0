"""The hooks as a maintainer reads them: each says its job, loads alone, touches no private names of others."""

import ast
import re

import pytest
from hook_loader import HOOKS, MODULES, ROOT, SITE, load_hook

SHARED = sorted(p.stem for p in SITE.glob("*.py") if p.stem != "__init__")


@pytest.mark.parametrize("name", MODULES)
def test_each_hook_says_its_job_in_its_first_sentence_and_loads(name):
    doc = ast.get_docstring(ast.parse((HOOKS / f"{name}.py").read_text(encoding="utf-8")))
    assert doc and doc.splitlines()[0].endswith("."), f"hooks/{name}.py: a one-sentence first line"
    assert load_hook(name).__doc__.splitlines()[0] == doc.splitlines()[0]


# An attribute or import of a _private name, as `obj._name`, `from x import _name` or `x._internal`.
PRIVATE = re.compile(r"\b(?!self\b|cls\b)[A-Za-z]\w*\._[A-Za-z]\w*|from \S+ import (?:\(?\s*)_\w+|\b_internal\b")
OWN = {f"{name}." for name in MODULES + SHARED} | {"_katex."}
SOURCES = [HOOKS / f"{name}.py" for name in MODULES] + [SITE / f"{name}.py" for name in SHARED]


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_hook_nor_shared_module_touches_another_packages_private_names(path):
    found = [
        m.group(0) for m in PRIVATE.finditer(path.read_text(encoding="utf-8")) if not m.group(0).startswith(tuple(OWN))
    ]
    assert not found, f"{path.relative_to(ROOT)} uses private names of other packages: {found}"


def test_the_private_name_check_can_fail():
    planted = "x = plugin._supported_extensions\nfrom markdown_exec._internal import main\nfrom a import _b\n"
    assert len(PRIVATE.findall(planted)) == 3


def top_level_names(tree):
    """Yield the functions a module defines and the names it assigns (an event may be a mkdocs CombinedEvent)."""
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            yield node.name
        elif isinstance(node, ast.Assign):
            yield from (t.id for t in node.targets if isinstance(t, ast.Name))


def test_mkdocs_yml_lists_every_hook_and_the_shared_modules_have_no_events():
    listed = re.findall(r"^  - hooks/(\w+)\.py\b", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    has_events = {
        name
        for name in MODULES
        if any(
            n.startswith("on_") for n in top_level_names(ast.parse((HOOKS / f"{name}.py").read_text(encoding="utf-8")))
        )
    }
    assert len(listed) == len(set(listed)) and set(listed) == has_events == set(MODULES)
    for name in SHARED:  # primer_site: imported by the hooks, the tests and bench/, never listed as a hook
        tree = ast.parse((SITE / f"{name}.py").read_text(encoding="utf-8"))
        assert not [n for n in top_level_names(tree) if n.startswith("on_")], name


def test_parity_and_the_runner_read_exec_fences_with_one_parser():
    """primer_site.fences: any value markdown-exec reads as true runs a block, for both hooks alike."""
    text = '!!! note\n\n    ```python exec="on" id="core-numpy"\n    --8<-- "05-mask/core_numpy.py"\n    ```\n'
    parity, runner = load_hook("parity"), load_hook("runner")
    assert parity.exec_block_ids(text) == ["core-numpy"] and runner.runnable_snippets(text) == ["05-mask/core_numpy.py"]
    off = text.replace('exec="on"', 'exec="off"')
    assert parity.exec_block_ids(off) == [] == runner.runnable_snippets(off)

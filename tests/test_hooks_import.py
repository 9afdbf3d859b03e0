"""The hooks as a maintainer reads them: small modules, one job each, no private names of others; load_hook."""

import ast
import importlib.util
import re
import sys

import pytest
from site_reader import ROOT

HOOKS = ROOT / "hooks"
_LOADED = {}


def load_hook(name):
    """Import hooks/<name>.py as MkDocs does (its folder importable while it loads), once per test process."""
    if name not in _LOADED:
        spec = importlib.util.spec_from_file_location(f"primer_hook_{name}", HOOKS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.path.insert(0, str(HOOKS))
        try:
            spec.loader.exec_module(module)
        finally:
            sys.path.remove(str(HOOKS))
        _LOADED[name] = module
    return _LOADED[name]


MODULES = sorted(p.stem for p in HOOKS.glob("*.py"))


@pytest.mark.parametrize("name", MODULES)
def test_each_hook_says_its_job_in_its_first_sentence_and_loads(name):
    doc = ast.get_docstring(ast.parse((HOOKS / f"{name}.py").read_text(encoding="utf-8")))
    assert doc and doc.splitlines()[0].endswith("."), f"hooks/{name}.py: a one-sentence first line"
    assert load_hook(name).__doc__.splitlines()[0] == doc.splitlines()[0]


# An attribute or import of a _private name, as `obj._name`, `from x import _name` or `x._internal`.
PRIVATE = re.compile(r"\b(?!self\b|cls\b)[A-Za-z]\w*\._[A-Za-z]\w*|from \S+ import (?:\(?\s*)_\w+|\b_internal\b")
OWN = {f"{name}." for name in MODULES} | {"_LOADED.", "_katex."}


@pytest.mark.parametrize("name", MODULES)
def test_no_hook_touches_another_packages_private_names(name):
    found = [
        m.group(0)
        for m in PRIVATE.finditer((HOOKS / f"{name}.py").read_text(encoding="utf-8"))
        if not m.group(0).startswith(tuple(OWN))
    ]
    assert not found, f"hooks/{name}.py uses private names of other packages: {found}"


def test_the_private_name_check_can_fail():
    planted = "x = plugin._supported_extensions\nfrom markdown_exec._internal import main\nfrom a import _b\n"
    assert len(PRIVATE.findall(planted)) == 3


# Imported by the hooks, or (runner_worker) packed by one for the browser: no events of their own.
HELPERS = {"primer_sources", "site_lang", "plugin_touches", "runner_worker"}


def test_mkdocs_yml_lists_every_hook_and_no_helper():
    listed = re.findall(r"^  - hooks/(\w+)\.py\b", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.M)
    has_events = {
        name
        for name in MODULES
        if any(
            isinstance(node, ast.FunctionDef) and node.name.startswith("on_")
            for node in ast.parse((HOOKS / f"{name}.py").read_text(encoding="utf-8")).body
        )
    }
    assert len(listed) == len(set(listed)) and set(listed) == has_events == set(MODULES) - HELPERS

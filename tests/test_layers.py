"""The import rule of primer's layers, read from the source with ast (nothing is imported), and no import cycle.

pages (the chapters' inputs) import nothing of primer; the core (primer/*.py) imports only the core;
figures import the core and figures; pretrained (the real model's loader) imports the core and itself. Every
edge is a module-level or function-level import.
"""

import ast
from pathlib import Path

from site_reader import ROOT

PRIMER = ROOT / "primer"


def layer(module):  # "primer.figures.mask" -> "figures"
    """Return the layer a primer module belongs to: pages, figures, pretrained or core."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ("pages", "figures", "pretrained") else "core"


# layer -> layers it may import. pretrained (the real model: its file, gguf, tokenizers) reads into the core's math;
# the core never imports it, so primer's math needs numpy only.
ALLOWED = {"pages": set(), "core": {"core"}, "figures": {"core", "figures"}, "pretrained": {"core", "pretrained"}}


def module_name(path, root):
    """Return the dotted name of a source file under root's parent ('primer/figures/mask.py' ->
    'primer.figures.mask')."""
    rel = path.relative_to(root.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def imports(path, root):  # -> set of primer modules the file imports
    """Return the primer modules a file imports, resolving `from primer import x` to primer.x when x is a module."""
    package = root.name
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == package}
        elif (
            isinstance(node, ast.ImportFrom)
            and node.module
            and node.level == 0
            and node.module.split(".")[0] == package
        ):
            for a in node.names:
                sub = f"{node.module}.{a.name}"
                is_module = (root.parent / Path(*sub.split("."))).with_suffix(".py").exists() or (
                    root.parent / Path(*sub.split("."))
                ).is_dir()
                found.add(sub if is_module else node.module)
    return found


def graph(root):  # -> {module: set of imported primer modules}
    """Return the import graph of every module under root."""
    return {module_name(p, root): imports(p, root) for p in sorted(root.rglob("*.py"))}


def violations(edges):  # -> list of "a -> b (layer a may not import layer b)"
    """Return the imports that break the layer rule; a package's __init__ belongs to the package's layer."""
    return [
        f"{a} -> {b} ({layer(a)} may not import {layer(b)})"
        for a, targets in sorted(edges.items())
        for b in sorted(targets)
        if layer(b) not in ALLOWED[layer(a)]
    ]


def cycle(edges):  # -> list of modules forming a cycle, or []
    """Return one import cycle (a, b, ..., a) if the graph has any, else []."""
    state, stack = {}, []

    def visit(m):
        state[m] = "open"
        stack.append(m)
        for n in sorted(edges.get(m, ())):
            if n == m or n not in edges:
                continue
            if state.get(n) == "open":
                return stack[stack.index(n) :] + [n]
            if n not in state and (found := visit(n)):
                return found
        stack.pop()
        state[m] = "done"
        return []

    for m in sorted(edges):
        if m not in state and (found := visit(m)):
            return found
    return []


def test_primer_keeps_the_layer_rule():
    edges = graph(PRIMER)
    assert len(edges) > 40 and any(layer(m) == "pages" for m in edges) and any(layer(m) == "figures" for m in edges)
    assert violations(edges) == []


def test_primer_has_no_import_cycle():
    assert cycle(graph(PRIMER)) == []


def plant(tmp_path, files):
    """Write a small package named primer under tmp_path from {relative path: source}; return its root."""
    root = tmp_path / "primer"
    for rel, src in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(src)
    for d in (root, root / "pages", root / "figures"):
        d.mkdir(exist_ok=True)
        (d / "__init__.py").touch()
    return root


def test_the_checks_catch_planted_breaks(tmp_path):
    root = plant(
        tmp_path,
        {
            "leak.py": "from primer.pages import decoder as page\n",  # core reaching up into a page
            # core reaching into figures, inside a function
            "masks.py": "def f():\n    from primer.figures.mask import g\n",
            "pages/decoder.py": "from primer.config import Config\n",  # a page importing the core
            "figures/mask.py": "from primer import masks\n",  # allowed
            "config.py": "import primer.machines\n",  # a cycle: config -> machines -> config
            "machines.py": "from primer.config import Config\n",
            "llama_decoder.py": "from primer.pretrained import load\n",  # core reaching into the real model's loader
            "pretrained/__init__.py": "from primer import masks\n",  # allowed: the loader reads into the core
        },
    )
    edges = graph(root)
    assert edges["primer.figures.mask"] == {"primer.masks"}
    assert violations(edges) == [
        "primer.leak -> primer.pages.decoder (core may not import pages)",
        "primer.llama_decoder -> primer.pretrained (core may not import pretrained)",
        "primer.masks -> primer.figures.mask (core may not import figures)",
        "primer.pages.decoder -> primer.config (pages may not import core)",
    ]
    assert cycle(edges) in (
        ["primer.config", "primer.machines", "primer.config"],
        ["primer.machines", "primer.config", "primer.machines"],
    )

"""The import rule of primer's layers, read from the source with ast (nothing is imported), and no import cycle.

inputs (the chapters' inputs) import nothing of primer; the math (primer/*.py) imports only the math; experiments
(trained runs and their data) import the math and experiments; notebook (the exercises) imports the math and notebook;
figures import the math and figures; pretrained (the real model's file, read with gguf and tokenizers) imports the
math and itself, so the math needs numpy only. Every edge is a module-level or function-level import.
"""

import ast
from pathlib import Path

from site_reader import ROOT

PRIMER = ROOT / "primer"


SUBPACKAGES = ("inputs", "experiments", "notebook", "figures", "pretrained")


def layer(module):  # "primer.figures.mask" -> "figures"
    """Return the layer a primer module belongs to: its subpackage's name, or math for primer/*.py."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in SUBPACKAGES else "math"


ALLOWED = {  # layer -> layers it may import
    "inputs": set(),
    "math": {"math"},
    "experiments": {"math", "experiments"},
    "notebook": {"math", "notebook"},
    "figures": {"math", "figures"},
    "pretrained": {"math", "pretrained"},
}


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
    assert len(edges) > 40 and {layer(m) for m in edges} == set(ALLOWED)
    assert violations(edges) == []


def test_primer_has_no_import_cycle():
    assert cycle(graph(PRIMER)) == []


def plant(tmp_path, files):
    """Write a small package named primer under tmp_path from {relative path: source}; return its root."""
    root = tmp_path / "primer"
    for rel, src in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(src)
    for d in (root, *(root / name for name in SUBPACKAGES)):
        d.mkdir(exist_ok=True)
        (d / "__init__.py").touch()
    return root


def test_the_checks_catch_planted_breaks(tmp_path):
    root = plant(
        tmp_path,
        {
            "leak.py": "from primer.inputs import decoder as page\n",  # the math reaching up into a chapter's inputs
            # the math reaching into figures, inside a function
            "masks.py": "def f():\n    from primer.figures.mask import g\n",
            "softmax.py": "from primer.experiments import broken_masks\n",  # the math reaching into an experiment
            "attention.py": "import primer.notebook.compare\n",  # the math reaching into the notebook
            "inputs/decoder.py": "from primer.config import Config\n",  # a chapter's inputs importing the math
            "figures/mask.py": "from primer import masks\n",  # allowed
            "experiments/broken_masks.py": "from primer import masks\nfrom primer.experiments import grammar\n",
            "experiments/grammar.py": "",
            "notebook/compare.py": "from primer.experiments import grammar\n",  # the notebook reaching an experiment
            "config.py": "import primer.machines\n",  # a cycle: config -> machines -> config
            "machines.py": "from primer.config import Config\n",
            "llama_decoder.py": "from primer.pretrained import load\n",  # core reaching into the real model's loader
            "pretrained/__init__.py": "from primer import masks\n",  # allowed: the loader reads into the core
        },
    )
    edges = graph(root)
    assert edges["primer.figures.mask"] == {"primer.masks"}
    assert edges["primer.experiments.broken_masks"] == {"primer.masks", "primer.experiments.grammar"}
    assert violations(edges) == [
        "primer.attention -> primer.notebook.compare (math may not import notebook)",
        "primer.inputs.decoder -> primer.config (inputs may not import math)",
        "primer.leak -> primer.inputs.decoder (math may not import inputs)",
        "primer.llama_decoder -> primer.pretrained (math may not import pretrained)",
        "primer.masks -> primer.figures.mask (math may not import figures)",
        "primer.notebook.compare -> primer.experiments.grammar (notebook may not import experiments)",
        "primer.softmax -> primer.experiments.broken_masks (math may not import experiments)",
    ]
    assert cycle(edges) in (
        ["primer.config", "primer.machines", "primer.config"],
        ["primer.machines", "primer.config", "primer.machines"],
    )

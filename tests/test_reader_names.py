"""Every primer name a reader is shown (on a page, in a notebook, in a snippet) exists: imported and looked up."""

import ast
import importlib
import json
import re
import textwrap
from pathlib import Path

import pytest
import yaml

import primer

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
# the modules a reader may name without the package (short name -> path under primer): `published.model`,
# `counts.kv_cache_bytes`, and an experiment's `trained_encoder.fill`
MODULES = {p.stem: p.stem for p in (ROOT / "primer").glob("*.py") if not p.stem.startswith("_")}
MODULES |= {p.stem: f"experiments.{p.stem}" for p in (ROOT / "primer" / "experiments").glob("[!_]*.py")}
MODULES |= {name: name for name in ("figures", "inputs", "experiments", "notebook")}
DOTTED = re.compile(r"(?<![\w./-])primer(?:\.[A-Za-z_]\w*)+")
INLINE_CODE = re.compile(r"`([^`\n]+)`")
SHORT = re.compile(r"(?<![\w./-])(" + "|".join(sorted(MODULES)) + r")\.([A-Za-z_]\w*)")
FENCE = re.compile(r"^([ \t]*)```[^\n]*\n(.*?)^\1```", re.S | re.M)


def resolve(dotted):
    """Import the longest module prefix of a dotted name, then look up the rest; raise if any part is missing."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for attr in parts[cut:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(dotted)


def names_in_code(code, aliases):
    """Yield the dotted primer names a piece of code uses; aliases (name -> dotted) carries over between cells."""
    try:
        tree = ast.parse(code)
    except SyntaxError:  # a fragment shown on a page: read its imports and dotted names only
        for line in code.splitlines():
            m = re.match(r"\s*from (primer[\w.]*) import ([\w, ]+)$", line)
            if m:
                yield from (f"{m[1]}.{n.split(' as ')[0].strip()}" for n in m[2].split(","))
        yield from DOTTED.findall(code)
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "primer":
            for a in node.names:
                yield f"{node.module}.{a.name}"
                aliases[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "primer":
                    yield a.name
                    if a.asname:
                        aliases[a.asname] = a.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            try:
                target = resolve(aliases[node.value.id])
            except (ImportError, AttributeError):
                continue  # the import itself is reported
            if isinstance(target, type(primer)):  # only a module's attributes are names we promise
                yield f"{aliases[node.value.id]}.{node.attr}"
        if isinstance(node, ast.Attribute):
            dotted = _dotted(node)
            if dotted and dotted.startswith("primer."):
                yield dotted


def _dotted(node):
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    return ".".join([node.id, *reversed(parts)]) if isinstance(node, ast.Name) else None


def names_in_prose(text):
    """Yield the primer names prose shows: primer.a.b anywhere, and module.attr in inline code."""
    yield from (name for name in DOTTED.findall(text) if name != "primer.zip")  # the site's download of primer
    for span in INLINE_CODE.findall(text):
        # a file name (`primer/rnn.py`, Hugging Face's `config.json`) is not a name
        yield from (f"primer.{MODULES[m]}.{a}" for m, a in SHORT.findall(span) if a not in ("py", "json", "yml", "md"))


def _page_names(path):
    text = path.read_text(encoding="utf-8")
    aliases = {}
    for _, code in FENCE.findall(text):
        if "--8<--" not in code:
            yield from names_in_code(textwrap.dedent(code), aliases)
    yield from names_in_prose(FENCE.sub("", text))


def _notebook_names(path):
    aliases = {}
    for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
        source = "".join(cell["source"])
        yield from (names_in_code(source, aliases) if cell["cell_type"] == "code" else names_in_prose(source))


def _spec_names(path):
    aliases = {}

    def walk(value, key=None):
        if isinstance(value, dict):
            for k, v in value.items():
                yield from walk(v, k)
        elif isinstance(value, list):
            for v in value:
                yield from walk(v, key)
        elif isinstance(value, str):
            yield from (names_in_code(value, aliases) if key in ("code", "stub", "solution") else names_in_prose(value))

    yield from walk(yaml.safe_load(path.read_text(encoding="utf-8")))


SOURCES = (
    [(p, _page_names) for p in sorted(DOCS.glob("*/*.md"))]
    + [(p, _notebook_names) for p in sorted(DOCS.glob("*/notebooks/*.ipynb"))]
    + [(p, _spec_names) for p in sorted((ROOT / "notebooks").glob("*.yml"))]
    + [
        (p, lambda p: names_in_code(p.read_text(encoding="utf-8"), {}))
        for p in sorted((DOCS / "snippets").rglob("*.py"))
    ]
)


@pytest.mark.parametrize("path, reader", SOURCES, ids=[str(p.relative_to(ROOT)) for p, _ in SOURCES])
def test_every_primer_name_shown_to_a_reader_exists(path, reader):
    missing = []
    for name in sorted(set(reader(path))):
        try:
            resolve(name)
        except (ImportError, AttributeError) as e:
            missing.append(f"{name} ({type(e).__name__}: {e})")
    assert not missing, f"{path.relative_to(ROOT)} shows names primer does not have: {missing}"


def test_the_sources_name_primer_at_all():
    # the readers above find names: a regex gone wrong would pass every file
    found = {name for path, reader in SOURCES for name in reader(path)}
    assert {"primer.published.model", "primer.counts.kv_cache_bytes", "primer.notebook.grade"} <= found
    assert len(found) > 100


@pytest.mark.parametrize(
    "text, missing",
    [
        ("call `models.model('x')`", None),  # not a primer module: not ours to check
        ("call `published.model('x')`", None),
        ("call `published.no_such_thing()`", "primer.published.no_such_thing"),
        ("see primer.masks.causal_mask.", None),
        ("see primer.masks.no_such_mask", "primer.masks.no_such_mask"),
    ],
)
def test_the_prose_reader_catches_a_missing_name(text, missing):
    bad = []
    for name in names_in_prose(text):
        try:
            resolve(name)
        except AttributeError:
            bad.append(name)
    assert bad == ([missing] if missing else [])


def test_the_code_reader_follows_aliases():
    aliases = {}
    names = set(names_in_code("from primer import published as pub\n", aliases))
    names |= set(names_in_code("pub.model('Mistral-7B')\npub.nope\n", aliases))
    assert {"primer.published", "primer.published.model", "primer.published.nope"} <= names

"""Every file path a docstring, README, CONTRIBUTING or ARCHITECTURE names exists in the tree (as it is now)."""

import ast
import re

from site_reader import ROOT

TOP = ("primer", "primer_site", "docs", "tests", "hooks", "bench", "tools", "overrides", "notebooks", ".github", ".ci")
# A path: one of the tree's top folders, then names; it ends at a space, quote, bracket or sentence punctuation.
PATH = re.compile(rf"(?<![\w./-])(?:{'|'.join(map(re.escape, TOP))})/[\w./@-]*[\w/]")
# Not a path but a pattern or a placeholder: a glob, an NN-slug or <lang> stand-in, an ellipsis.
PLACEHOLDER = re.compile(r"[*?{}<>]|\.\.\.|(?:^|[/_-])NN(?:[/_.-]|$)|(?:^|/)(?:x|name|slug)\.\w+$")
# CONTRIBUTING's walkthrough adds an example chapter, 19-moe (its module primer/experts.py): files still to write.
EXAMPLE = re.compile(r"(?<![0-9])[0-9]{2}[-_]moe\b|/moe\.py$|experts\.py$")
# Made by a run, not committed (.gitignore): the browser tests' artifacts, npm's node_modules.
GENERATED = [g for g in (ROOT / ".gitignore").read_text(encoding="utf-8").split() if "/" in g.rstrip("/")]
DOCS_FILES = ("README.md", "CONTRIBUTING.md", "ARCHITECTURE.md")
SOURCES = ("primer", "primer_site", "hooks", "tests", "bench", "tools")


def named_paths(text):
    """Return the paths text names, placeholders and globs left out."""
    out = set()
    for m in PATH.finditer(text):
        path = m.group(0).rstrip(".")
        before, after = text[max(0, m.start() - 1) : m.start()], text[m.end() : m.end() + 1]
        if PLACEHOLDER.search(path) or (after and after in "*<{") or (before and before in "<{"):
            continue
        if EXAMPLE.search(path) or any(path.startswith(g.rstrip("/")) for g in GENERATED):
            continue
        out.add(path)
    return out


def docstrings(path):
    """Return the docstrings of a Python file: the module's, each class's and function's."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)))]
    return [d for d in map(ast.get_docstring, nodes) if d]


def texts():
    """Yield (where, text) for each document and each docstring of the project's Python."""
    for name in DOCS_FILES:
        yield name, (ROOT / name).read_text(encoding="utf-8")
    for top in SOURCES:
        for path in sorted((ROOT / top).rglob("*.py")):
            if "node_modules" in path.parts or "katex" in path.parts:
                continue
            for doc in docstrings(path):
                yield path.relative_to(ROOT).as_posix(), doc


def missing(where_texts):
    return sorted({(where, p) for where, text in where_texts for p in named_paths(text) if not (ROOT / p).exists()})


def test_every_named_path_exists():
    assert not missing(texts()), "named but not in the tree: " + ", ".join(f"{w}: {p}" for w, p in missing(texts()))


def test_the_path_check_reads_paths_and_spares_patterns():
    text = (
        "See primer/masks.py and `docs/snippets/05-mask/fill_rule.py`, tests/chapters/test_NN_slug.py, "
        "docs/<lang>/notebooks/NN-slug.ipynb, primer/figures/*.py, hooks/no_such_hook.py."
    )
    assert named_paths(text) == {"primer/masks.py", "docs/snippets/05-mask/fill_rule.py", "hooks/no_such_hook.py"}
    assert missing([("planted", text)]) == [("planted", "hooks/no_such_hook.py")]

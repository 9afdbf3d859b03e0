"""What a piece of code depends on in primer: the primer modules it imports, followed through primer's own imports.

Both caches of the build key their entries with it (hooks/primer_build.py: executed blocks under
`mkdocs serve`; hooks/notebooks.py: executed notebooks), so an edit to one primer module runs again
only the blocks and notebooks that import it, directly or through another module. Importing a
module runs its packages' __init__ too, so those count. The graph is read from the source with
`ast`, imports inside functions included, without importing anything. primer never imports by a
computed name (tests/test_exec_cache.py checks), so the static graph is the whole graph. Data
files inside primer (labels, exercise texts) are read at run time by modules that may not name
them: every one of them counts for every piece of code.
"""

import ast
import hashlib
import importlib.metadata
import importlib.util
import sys
from pathlib import Path


def module_name(path, package_dir):
    """Return the dotted name of a .py file under package_dir (primer/figures/__init__.py -> primer.figures)."""
    rel = path.relative_to(package_dir.parent).with_suffix("")
    parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
    return ".".join(parts)


def imported_names(tree, package=None):
    """Return every dotted name an AST imports, with each `from X import y` giving X and X.y; relative imports resolved."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                if package is None:
                    continue
                parent = package.split(".")
                parent = parent[:len(parent) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


_PARSED = {}   # (sha256 of a source, its package) -> the names it imports; kept while `mkdocs serve` runs


def imports_of(body, package=None):
    """Return the names a module's source imports (None if it does not parse), parsing each distinct source once."""
    key = (hashlib.sha256(body).hexdigest(), package)
    if key not in _PARSED:
        try:
            _PARSED[key] = imported_names(ast.parse(body), package)
        except SyntaxError:
            _PARSED[key] = None
    return _PARSED[key]


class SourceGraph:
    """primer's modules, each with the hash of its file and the primer modules it imports; read once per build."""

    def __init__(self, package_dir):
        self.package_dir = Path(package_dir)
        self.top = self.package_dir.name
        self.hashes, self.imports, names = {}, {}, {}
        data = hashlib.sha256()
        for path in sorted(p for p in self.package_dir.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            body = path.read_bytes()
            if path.suffix == ".py":
                name = module_name(path, self.package_dir)
                self.hashes[name] = hashlib.sha256(body).hexdigest()
                package = name if path.name == "__init__.py" else name.rpartition(".")[0]
                names[name] = imports_of(body, package)   # None: it fails when imported; counts as all of primer
            elif path.suffix != ".pyc":
                data.update(path.relative_to(self.package_dir).as_posix().encode() + b"\0" + body + b"\0")
        self.data = data.hexdigest()
        self.imports = {name: None if found is None else self.within(found) for name, found in names.items()}

    def within(self, names):
        """Return the primer modules among names, with the packages each one's import runs."""
        found = set()
        for name in names:
            parts = name.split(".")
            for i in range(1, len(parts) + 1):
                prefix = ".".join(parts[:i])
                if prefix in self.hashes:
                    found.add(prefix)
        return found

    def closure(self, code):
        """Return the primer modules that running code imports, directly or not (all of them if code does not parse)."""
        names = imports_of(code.encode("utf-8"))
        if names is None:
            return set(self.hashes)
        todo = self.within(names)
        seen = set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            deps = self.imports.get(name)
            if deps is None:
                return set(self.hashes)
            todo |= deps - seen
        return seen

    def digest(self, code):
        """Return a sha256 over what code reads from primer: its modules' files and every data file."""
        h = hashlib.sha256(self.data.encode())
        for name in sorted(self.closure(code)):
            h.update(f"{name}={self.hashes[name]}\n".encode())
        return h.hexdigest()


def primer_dir(fallback):
    """Return the folder of the primer package that builds import (an editable install: the tree's own), else fallback."""
    spec = importlib.util.find_spec("primer")
    return Path(spec.origin).parent if spec and spec.origin else Path(fallback)


def versions(*packages):
    """Return the Python version and the installed versions of packages: what an output depends on beyond its inputs."""
    return {"python": sys.version, **{name: importlib.metadata.version(name) for name in packages}}

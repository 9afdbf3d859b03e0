"""The primer modules a piece of code imports, followed through primer's own imports, read with `ast` (none imported).

The exec cache (hooks/exec_cache.py) keys each block by it, so a primer edit runs again only the
blocks that import what changed; hooks/fresh_primer.py re-imports only the modules an edit touched.
Importing a module runs its packages' __init__ too, so those count; primer never imports by a
computed name (tests/test_exec_cache.py checks). Data files inside primer (labels, exercise
texts) count for every piece of code.
"""

import ast
import hashlib
from pathlib import Path

# (sha256 of a source, its package) -> its imports; kept while `mkdocs serve` runs (MkDocs reloads hooks only)
PARSED = {}
LAST = {}  # "graph": the SourceGraph at the start of the previous build; kept the same way


def imported_names(source, package=""):
    """Return every dotted name source imports (`from X import y` gives X and X.y); None if it does not parse."""
    key = (hashlib.sha256(source if isinstance(source, bytes) else source.encode()).hexdigest(), package)
    if key not in PARSED:
        PARSED[key] = parse_imports(source, package)
    return PARSED[key]


def parse_imports(source, package):
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolved against the importing module's package
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


class SourceGraph:
    """primer's modules, each with the hash of its file and the primer modules it imports; read once per build."""

    def __init__(self, package_dir):
        package_dir = Path(package_dir)
        self.hashes, self.imports, data = {}, {}, hashlib.sha256()
        for path in sorted(p for p in package_dir.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            body = path.read_bytes()
            if path.suffix == ".py":
                parts = path.relative_to(package_dir.parent).with_suffix("").parts
                name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
                package = name if path.name == "__init__.py" else name.rpartition(".")[0]
                self.hashes[name] = hashlib.sha256(body).hexdigest()
                self.imports[name] = imported_names(body, package)
            elif path.suffix != ".pyc":
                data.update(path.relative_to(package_dir).as_posix().encode() + b"\0" + body + b"\0")
        self.data = data.hexdigest()
        # module -> the primer modules its own imports name (None: it does not parse); then what each one's import runs
        self.deps = {name: None if names is None else self.within(names) for name, names in self.imports.items()}
        self.reaches = {}

    def within(self, names):
        """Return the primer modules among names, with the packages each one's import runs."""
        return {
            prefix
            for name in names
            for i in range(1, name.count(".") + 2)
            for prefix in [".".join(name.split(".")[:i])]
            if prefix in self.hashes
        }

    def closure(self, code):
        """Return the primer modules running code imports, directly or not (all of them if anything does not parse)."""
        names = imported_names(code)
        if names is None:
            return set(self.hashes)
        return set().union(*(self.reach(name) for name in self.within(names)))

    def reach(self, module):
        """Return the primer modules importing module runs, itself included (all of them if one does not parse)."""
        if module not in self.reaches:
            todo, seen = {module}, set()
            while todo:
                name = todo.pop()
                seen.add(name)
                if self.deps[name] is None:
                    seen = set(self.hashes)
                    break
                todo |= self.deps[name] - seen
            self.reaches[module] = frozenset(seen)
        return self.reaches[module]

    def digest(self, code):
        """Return a sha256 over what code reads from primer: its modules' files and every data file."""
        h = hashlib.sha256(self.data.encode())
        for name in sorted(self.closure(code)):
            h.update(f"{name}={self.hashes[name]}\n".encode())
        return h.hexdigest()

    def stale(self, previous):
        """Return the modules to import afresh since previous (a SourceGraph or None): changed ones and their importers.

        A module counts as importing its packages (a package imported afresh brings its submodules);
        a data file changed: all."""
        if previous is None or previous.data != self.data:
            return set(self.hashes) | set(previous.hashes if previous else ())
        out = {m for m in self.hashes.keys() | previous.hashes.keys() if self.hashes.get(m) != previous.hashes.get(m)}
        while True:
            more = {
                m
                for m in self.hashes.keys() - out
                if self.imports[m] is None or self.within(self.imports[m] | {m}) & out
            }
            if not more:
                return out
            out |= more

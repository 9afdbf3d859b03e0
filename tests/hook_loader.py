"""The hooks of mkdocs.yml loaded as MkDocs loads them, from their file, for the tests (what they share: primer_site).

A hook imports what it shares with the others from the installed package primer_site, never a sibling file, so a
hook loads alone here exactly as under MkDocs.
"""

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HOOKS = ROOT / "hooks"
SITE = ROOT / "primer_site"  # what the hooks, the tests and bench/ share
MODULES = sorted(p.stem for p in HOOKS.glob("*.py"))
_LOADED = {}


def load_hook(name):
    """Import hooks/<name>.py from its file as MkDocs does, once per test process."""
    if name not in _LOADED:
        spec = importlib.util.spec_from_file_location(f"primer_hook_{name}", HOOKS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        _LOADED[name] = module
    return _LOADED[name]

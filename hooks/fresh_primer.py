"""MkDocs hook: before each build, forget the primer modules edited since the last one and every module importing them.

A `mkdocs serve` rebuild then runs the edited code, while the untouched modules keep their state (a
page-module edit does not retrain chapter 7's model). primer_site/primer_sources.py finds what changed.
"""

import sys
from pathlib import Path

from primer_site.primer_sources import LAST, SourceGraph


def on_pre_build(config):
    """Forget the primer modules edited since the last build and all that import them: the rest keep their state."""
    graph = SourceGraph(Path(config.config_file_path).parent / "primer")
    for name in graph.stale(LAST.get("graph")) & set(sys.modules):
        del sys.modules[name]
    LAST["graph"] = graph

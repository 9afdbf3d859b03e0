"""MkDocs hook: under `mkdocs serve`, answer each markdown-exec python block from a cache keyed by all it depends on.

mkdocs.yml declares the python fence with `primer_site.exec_format.cached_format` as its format (markdown-exec's
documented custom fence), which returns the stored HTML or calls `markdown_exec.formatter` and stores what it gave;
on_pre_build here gives it this build's directory and key prefix.
The key covers the block's code as it runs (every --8<-- snippet already pasted in), its options,
the page language, the primer modules the code imports (primer_site/primer_sources.py), every file of
docs/snippets, mkdocs.yml (the Markdown extensions that convert the output) and the Python, numpy,
plotly and markdown-exec versions. Never stored: a block that logged a warning (a failure), a block
without id or in a session (shared state), HTML holding a heading (markdown-exec adds those to the
table of contents), anything from a build during which primer or a snippet changed.
`mkdocs build` runs every block unless PRIMER_EXEC_CACHE names a directory; "off" turns it off.
"""

import hashlib
import importlib.metadata
import os
import sys
from pathlib import Path

from primer_site.exec_format import STATE, stamp
from primer_site.primer_sources import SourceGraph

CACHE_ENV = "PRIMER_EXEC_CACHE"  # the cache's directory; unset or "off": no cache
FORMAT = "3"  # bump when what an entry holds changes


def on_startup(command, dirty):
    """Cache blocks under `mkdocs serve` (in .cache/exec beside mkdocs.yml) unless PRIMER_EXEC_CACHE says otherwise."""
    if command == "serve":
        os.environ.setdefault(CACHE_ENV, "")  # "": the default directory; kept in the environment across rebuilds


def cache_dir(config):
    """Return the cache's directory, or None when off; it must lie outside docs/ and site/."""
    setting = os.environ.get(CACHE_ENV)
    if setting is None or setting == "off":
        return None
    directory = Path(setting or Path(config.config_file_path).parent / ".cache" / "exec").resolve()
    for inside in (Path(config.docs_dir).resolve(), Path(config.site_dir).resolve()):
        if directory == inside or inside in directory.parents:
            raise ValueError(f"{CACHE_ENV} must lie outside docs/ and site/, got {directory}")
    return directory


def versions():
    """Return the versions a block's output depends on beyond its own inputs."""
    return {"python": sys.version, **{n: importlib.metadata.version(n) for n in ("numpy", "plotly", "markdown-exec")}}


def on_pre_build(config):
    """Read the sources once per build: every key of this build starts from the result."""
    STATE.clear()
    directory = cache_dir(config)
    if directory is None:
        return
    base = Path(config.config_file_path).parent
    roots = (base / "primer", base / "docs" / "snippets")
    h = hashlib.sha256(FORMAT.encode() + repr(sorted(versions().items())).encode())
    for path, *_ in stamp(roots[1]):
        h.update(path.encode() + b"\0" + Path(path).read_bytes() + b"\0")
    h.update(Path(config.config_file_path).read_bytes())
    STATE.update(
        directory=directory, roots=roots, stamp=stamp(*roots), graph=SourceGraph(roots[0]), prefix=h.hexdigest()
    )

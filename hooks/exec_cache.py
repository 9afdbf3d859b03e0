"""MkDocs hook: under `mkdocs serve`, answer each markdown-exec python block from a cache keyed by all it depends on.

markdown-exec's plugin registers `markdown_exec.formatter` (its documented format function) as the
pymdownx.superfences format of the python fence; after it, this hook's on_config puts `cached_format`
there (through hooks/plugin_touches.py), which returns the stored HTML or calls
`markdown_exec.formatter` and stores what it gave.
The key covers the block's code as it runs (every --8<-- snippet already pasted in), its options,
the page language, the primer modules the code imports (hooks/primer_sources.py), every file of
docs/snippets, mkdocs.yml (the Markdown extensions that convert the output) and the Python, numpy,
plotly and markdown-exec versions. Never stored: a block that logged a warning (a failure), a block
without id or in a session (shared state), HTML holding a heading (markdown-exec adds those to the
table of contents), anything from a build during which primer or a snippet changed.
`mkdocs build` runs every block unless PRIMER_EXEC_CACHE names a directory; "off" turns it off.
"""

import hashlib
import importlib.metadata
import logging
import os
import re
import sys
import tempfile
from pathlib import Path

import markdown_exec
from markupsafe import Markup
from mkdocs.plugins import event_priority
from plugin_touches import replace_exec_formatter
from primer_sources import SourceGraph

CACHE_ENV = "PRIMER_EXEC_CACHE"  # the cache's directory; unset or "off": no cache
FORMAT = "3"  # bump when what an entry holds changes
HEADING = re.compile(r"<h[1-6][\s>]")
STATE = {}  # this build's directory, sources and key prefix (set at on_pre_build)


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


def stamp(*roots):
    """Return every file's path, size and modification time under roots: cheap to compare while a build runs."""
    return [
        (p.as_posix(), p.stat().st_size, p.stat().st_mtime_ns)
        for root in roots
        for p in sorted(Path(root).rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    ]


@event_priority(-50)  # after markdown-exec's on_config (0), which registers its fences
def on_config(config):
    """Put cached_format in place of markdown_exec.formatter on every fence markdown-exec registered."""
    replace_exec_formatter(config, cached_format)
    return config


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


def block_key(source, options):
    """Return the key of a block's HTML: the build's prefix, the primer it imports, the page language, code, options."""
    parts = (
        STATE["prefix"],
        STATE["graph"].digest(source),
        os.environ.get("PRIMER_LANG", ""),
        source,
        repr(sorted(options.items())),
    )
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


class Warnings(logging.Handler):
    """Count the warnings logged while attached (markdown-exec reports a failing block as one)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record):
        self.count += 1


def cached_format(source, language, css_class, options, md, **kwargs):
    """Return the block's HTML from the cache, or from markdown_exec.formatter (stored when it may be)."""
    if not STATE or not options.get("id") or options.get("session"):
        return markdown_exec.formatter(source, language, css_class, options, md, **kwargs)
    key = block_key(source, options)
    path = STATE["directory"] / key[:2] / f"{key}.html"
    if path.exists():
        return Markup(path.read_text(encoding="utf-8"))
    warnings, loggers = Warnings(), (logging.getLogger(), logging.getLogger("mkdocs"))
    for logger in loggers:
        logger.addHandler(warnings)
    try:
        html = markdown_exec.formatter(source, language, css_class, options, md, **kwargs)
    finally:
        for logger in loggers:
            logger.removeHandler(warnings)
    if not warnings.count and not HEADING.search(html) and stamp(*STATE["roots"]) == STATE["stamp"]:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(str(html))
        os.replace(tmp, path)  # atomic: two builds at once never read half an entry
    return html

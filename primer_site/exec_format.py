"""The python fence's format: markdown-exec's formatter, answered under `mkdocs serve` from the exec cache.

mkdocs.yml declares the fence itself, as markdown-exec documents (`custom_fences` under pymdownx.superfences, with
`markdown_exec.validator`), and names `cached_format` as its format; its plugin registers no fence of its own
(`languages: []`). hooks/exec_cache.py fills STATE at each build's on_pre_build; while STATE is empty (`mkdocs build`,
the cache off) every block runs through `markdown_exec.formatter`. What a key covers: hooks/exec_cache.py.
"""

import hashlib
import logging
import os
import re
import tempfile
from pathlib import Path

import markdown_exec
from markupsafe import Markup

HEADING = re.compile(r"<h[1-6][\s>]")
STATE = {}  # this build's directory, sources and key prefix (hooks/exec_cache.py, on_pre_build); empty: no cache


def stamp(*roots):
    """Return every file's path, size and modification time under roots: cheap to compare while a build runs."""
    return [
        (p.as_posix(), p.stat().st_size, p.stat().st_mtime_ns)
        for root in roots
        for p in sorted(Path(root).rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts
    ]


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

"""Run one executed block as markdown-exec runs it, in a worker process of the build (hooks/primer_build.py: Prerun)."""

import os


def run_block(code, lang, returncode, block_id, extra):
    """Run one block with the page language set; return its output, or None if it fails (the build then runs it itself)."""
    from markdown_exec._internal.formatters import python as mx_python   # private: pinned in requirements.lock

    os.environ["PRIMER_LANG"] = lang   # as hooks/primer_build.py's on_page_markdown sets it for the page
    try:
        return mx_python._run_python(code, returncode=returncode, session=None, id=block_id, **extra)
    except Exception:  # noqa: BLE001 - run again in the build's process, it fails there with markdown-exec's own report
        return None

"""MkDocs hook: the environment each page is built in (freshly edited primer, commit date, edit links, page language, plotly.js).

The page language reaches the figure code through one documented mechanism: before a page's
Markdown is converted (and its exec blocks run), on_page_markdown sets the environment variable
PRIMER_LANG to the page's language ("zh" or "en"); primer reads it in exactly one function.
"""

import os
import subprocess
import sys
from pathlib import Path

from mkdocs.plugins import event_priority
from primer_sources import LAST, SourceGraph

LANG_ENV = "PRIMER_LANG"
DEFAULT_LANG = "zh"


def on_config(config):
    """Drop edit links without a repository; date the build by its last commit so two builds are byte-identical."""
    if not config.get("repo_url"):
        config["edit_uri"] = None  # edit_uri alone is a warning on every page
    if "SOURCE_DATE_EPOCH" not in os.environ:  # MkDocs dates pages and sitemap.xml.gz by it
        try:
            proc = subprocess.run(
                ["git", "log", "-1", "--format=%ct"],
                capture_output=True,
                text=True,
                cwd=os.path.dirname(config.config_file_path),
            )
        except OSError:  # no git: dated by the clock, as MkDocs does
            return config
        if proc.returncode == 0 and proc.stdout.strip():
            os.environ["SOURCE_DATE_EPOCH"] = proc.stdout.strip()
    return config


def on_pre_build(config):
    """Forget the primer modules edited since the last build and all that import them: the rest keep their state."""
    graph = SourceGraph(Path(config.config_file_path).parent / "primer")
    for name in graph.stale(LAST.get("graph")) & set(sys.modules):
        del sys.modules[name]
    LAST["graph"] = graph


@event_priority(-200)  # after i18n's on_files (-100) and hooks/notebooks.py's (-150)
def on_files(files, config):
    """Show htmlproofer (its public on_files) the files as i18n laid them out: it saw them before, at priority 0."""
    proofer = config.plugins.get("htmlproofer")
    if proofer is not None and proofer.config["enabled"]:
        proofer.on_files(files, config)
    return files


def on_env(env, config, files):
    """Under `mkdocs serve` (the exec cache on), keep the theme's compiled templates in .cache/jinja across rebuilds."""
    import jinja2

    if os.environ.get("PRIMER_EXEC_CACHE", "off") != "off":  # jinja keys each entry by the template's source
        directory = os.path.join(os.path.dirname(config.config_file_path), ".cache", "jinja")
        os.makedirs(directory, exist_ok=True)
        env.bytecode_cache = jinja2.FileSystemBytecodeCache(directory)
    return env


def page_lang(page):
    """Return the language of a page (mkdocs-static-i18n's locale of its file)."""
    return getattr(page.file, "locale", None) or DEFAULT_LANG


def on_page_markdown(markdown, page, config, files):
    """Tell the figure code the page language, through PRIMER_LANG."""
    os.environ[LANG_ENV] = page_lang(page)
    return markdown


def on_page_content(html, page, config, files):
    """Mark pages that hold a plotly figure, so overrides/main.html loads plotly.js there only."""
    page.meta["has_plotly"] = "Plotly.newPlot" in html
    return html

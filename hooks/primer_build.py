"""MkDocs hooks: fresh primer per build, page language for figures, plotly.js once, zh/en parity, relative links."""

import logging
import os
import re
import shutil
import sys
from pathlib import Path

from mkdocs.utils import get_relative_url

log = logging.getLogger("mkdocs.hooks.primer")

PLOTLY_JS = "assets/vendor/plotly.min.js"
EXEC_ID = re.compile(r"^\s*(?:`{3,}|~{3,})\s*python\b[^\n]*\bexec=\"(?:1|true|on)\"[^\n]*", re.M)
ID_ATTR = re.compile(r"\bid=\"([^\"]+)\"")
LOCALES = ("zh", "en")
ALTERNATE = re.compile(r'\s*<link rel="alternate" href="[^"]*" hreflang="[^"]*">')
SWITCH_ABSOLUTE = re.compile(r'<a href="/([^"]*)" hreflang="')
_exec_ids = {}  # (locale, src path inside the language folder) -> exec block ids, in page order


def on_pre_build(config):
    """Drop primer from sys.modules so `mkdocs serve` picks up every edit to it."""
    for name in [m for m in sys.modules if m == "primer" or m.startswith("primer.")]:
        del sys.modules[name]


def _locale_and_path(page):
    locale = getattr(page.file, "locale", None) or "zh"
    path = page.file.src_uri
    if path.startswith(locale + "/"):
        path = path[len(locale) + 1:]
    return locale, path


def on_page_markdown(markdown, page, config, files):
    """Tell the figure builders the page language, and record the page's exec block ids."""
    locale, path = _locale_and_path(page)
    os.environ["PRIMER_LANG"] = locale
    ids = []
    for fence in EXEC_ID.finditer(markdown):
        found = ID_ATTR.search(fence.group(0))
        if not found:
            log.warning(f"{page.file.src_uri}: an exec block has no id=; give every exec block one")
            continue
        ids.append(found.group(1))
    if len(ids) != len(set(ids)):
        log.warning(f"{page.file.src_uri}: exec block ids repeat: {ids}")
    _exec_ids[(locale, path)] = ids
    page.meta["exec_ids"] = " ".join(ids)
    return markdown


def on_page_content(html, page, config, files):
    """Mark pages that hold a plotly figure, so the template loads plotly.js in <head> there only."""
    page.meta["has_plotly"] = "Plotly.newPlot" in html
    return html


def on_post_page(output, page, config):
    """Drop the head's hreflang alternates, and make the language switcher's links relative.

    Material fetches <alternate>/sitemap.xml for each alternate (a 404: i18n points them at the page
    itself). On the home pages i18n writes the switcher's links as "/" and "/en/", which break when
    the site is served under a sub-path or opened from disk.
    """
    output = ALTERNATE.sub("", output)
    return SWITCH_ABSOLUTE.sub(lambda m: f'<a href="{get_relative_url(m.group(1) or "./", page.url)}" hreflang="', output)


def on_post_build(config):
    """Copy plotly.js from the installed plotly package, and check zh/en exec-block parity."""
    import plotly

    src = Path(plotly.__file__).parent / "package_data" / "plotly.min.js"
    dest = Path(config["site_dir"]) / PLOTLY_JS
    dest.parent.mkdir(parents=True, exist_ok=True)
    if not dest.exists() or dest.stat().st_size != src.stat().st_size:
        shutil.copyfile(src, dest)
    if {locale for locale, _ in _exec_ids} != set(LOCALES):
        return  # i18n builds zh, then en: compare once both are in
    by_path = {}
    for (locale, path), ids in _exec_ids.items():
        by_path.setdefault(path, {})[locale] = ids
    for path, per_locale in sorted(by_path.items()):
        if len(per_locale) == 1:
            log.warning(f"{path}: exists only in {next(iter(per_locale))}; every page lands in zh and en or not at all")
        elif len(set(map(tuple, per_locale.values()))) != 1:
            log.warning(f"{path}: zh and en run different exec blocks: {per_locale}")
    _exec_ids.clear()  # `mkdocs serve` rebuilds in the same process

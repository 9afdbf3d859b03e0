"""MkDocs hooks: fresh primer per build, zh/en parity, page language for figures, plotly.js on figure pages, commit-dated builds."""

import logging
import os
import subprocess
import sys
from pathlib import Path

import markdown
import markdown_exec
from mkdocs.plugins import event_priority
from mkdocs.utils import meta

log = logging.getLogger("mkdocs.hooks.primer")

LOCALES = ("zh", "en")


def on_config(config):
    """Date the build by its commit, so two builds of one commit are byte-identical (sitemap dates too)."""
    if "SOURCE_DATE_EPOCH" not in os.environ:  # MkDocs dates pages and sitemap.xml.gz by it
        try:
            proc = subprocess.run(["git", "log", "-1", "--format=%ct"], capture_output=True, text=True,
                                  cwd=os.path.dirname(config.config_file_path))
        except OSError:  # no git: dated by the clock, as MkDocs does
            return config
        if proc.returncode == 0 and proc.stdout.strip():
            os.environ["SOURCE_DATE_EPOCH"] = proc.stdout.strip()
    return config


def on_pre_build(config):
    """Drop primer from sys.modules so `mkdocs serve` picks up every edit to it; check zh/en parity."""
    for name in [m for m in sys.modules if m == "primer" or m.startswith("primer.")]:
        del sys.modules[name]
    # i18n builds the other language inside the first build; one check covers both languages.
    i18n = config.plugins.get("i18n")
    if not getattr(i18n, "building", False):
        check_parity(config)


@event_priority(-200)  # after i18n's on_files (-100), which lays out each language's files anew
def on_files(files, config):
    """Give htmlproofer the files this language's build writes; it keeps those it saw before i18n."""
    proofer = config.plugins.get("htmlproofer")
    if proofer is not None:
        proofer.files = list(files)
    return files


def on_page_markdown(markdown_text, page, config, files):
    """Tell the figure builders the page language."""
    os.environ["PRIMER_LANG"] = getattr(page.file, "locale", None) or LOCALES[0]
    return markdown_text


def on_page_content(html, page, config, files):
    """Mark pages that hold a plotly figure, so the template loads plotly.js in <head> there only."""
    page.meta["has_plotly"] = "Plotly.newPlot" in html
    return html


def exec_block_finder(config):
    """Return find(markdown_text) -> ids of the blocks markdown-exec runs in it, in the order it meets them.

    The text goes through the site's own Markdown extensions, and markdown-exec's own validator
    decides which fences run (exec="yes" runs; exec="no" does not), but nothing is executed.
    """
    found = []

    def record(language, inputs, options, attrs, md):
        runs = markdown_exec.validator(language, inputs, options, attrs, md)
        if runs:
            found.append(options["id"])
        return runs

    fences_by_name = {}
    for fence in config.mdx_configs.get("pymdownx.superfences", {}).get("custom_fences", []):
        if fence.get("validator") is markdown_exec.validator:
            fence = dict(fence, validator=record, format=lambda *args, **kwargs: "")
        fences_by_name.setdefault(fence["name"], fence)  # each rebuild registers markdown-exec's fences again
    configs = dict(config.mdx_configs)
    configs["pymdownx.superfences"] = dict(configs.get("pymdownx.superfences", {}),
                                           custom_fences=list(fences_by_name.values()))
    md = markdown.Markdown(extensions=config.markdown_extensions, extension_configs=configs)

    def find(markdown_text):
        found.clear()
        md.reset().convert(meta.get_data(markdown_text)[0])
        return list(found)

    return find


def check_parity(config):
    """Warn unless each page exists in every language and runs the same exec blocks, each with its own id.

    Reads both languages' sources from docs/, so the result does not depend on which language
    i18n builds first.
    """
    docs = Path(config.docs_dir)
    pages = {locale: {p.relative_to(docs / locale).as_posix() for p in (docs / locale).rglob("*.md")}
             for locale in LOCALES}
    find = exec_block_finder(config)
    for path in sorted(set().union(*pages.values())):
        present = [locale for locale in LOCALES if path in pages[locale]]
        if len(present) != len(LOCALES):
            log.warning(f"{path}: exists only in {', '.join(present)}; every page lands in zh and en or not at all")
            continue
        ids = {}
        for locale in LOCALES:
            ids[locale] = find((docs / locale / path).read_text(encoding="utf-8"))
            if "" in ids[locale]:
                log.warning(f"{locale}/{path}: an exec block has no id=; give every exec block one")
            if len(set(ids[locale])) != len(ids[locale]):
                log.warning(f"{locale}/{path}: exec block ids repeat: {ids[locale]}")
        if len({tuple(v) for v in ids.values()}) != 1:
            log.warning(f"{path}: zh and en run different exec blocks: {ids}")

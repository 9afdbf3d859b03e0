"""MkDocs hook: warn (so the strict build fails) unless zh and en have the same pages running the same exec blocks."""

import logging
from pathlib import Path

from primer_site.fences import exec_fences
from primer_site.site_lang import LANGS, is_first_pass

log = logging.getLogger("mkdocs.hooks.parity")
LOCALES = LANGS  # ("zh", "en")


def exec_block_ids(text):
    """Return the id of every block markdown-exec runs in a page's Markdown, in order ("" for a block without id)."""
    return [fence.id for fence in exec_fences(text)]


def check_parity(docs_dir):
    """Warn for a page missing in a language, an exec block without id or repeated, a page whose blocks differ."""
    docs = Path(docs_dir)
    pages = {lang: {p.relative_to(docs / lang).as_posix() for p in (docs / lang).rglob("*.md")} for lang in LOCALES}
    for path in sorted(set().union(*pages.values())):
        present = [lang for lang in LOCALES if path in pages[lang]]
        if len(present) != len(LOCALES):
            log.warning(f"{path}: exists only in {', '.join(present)}; every page lands in zh and en or not at all")
            continue
        ids = {lang: exec_block_ids((docs / lang / path).read_text(encoding="utf-8")) for lang in LOCALES}
        for lang, found in ids.items():
            if "" in found:
                log.warning(f"{lang}/{path}: an exec block has no id=; give every exec block one")
            if len(set(found)) != len(found):
                log.warning(f"{lang}/{path}: exec block ids repeat: {found}")
        if len({tuple(v) for v in ids.values()}) != 1:
            log.warning(f"{path}: zh and en run different exec blocks: {ids}")


def on_pre_build(config):
    """Check both languages once, in the default language's pass: i18n builds the other language inside it."""
    if is_first_pass(config):
        check_parity(config.docs_dir)

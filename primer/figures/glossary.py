"""The glossary page's table, built from the term list (docs/snippets/glossary/terms.yml)."""

from primer.figures.tables import md_table
from primer.language import page_lang

OTHER = {"zh": "en", "en": "zh"}


def glossary_table(terms, words, *, lang=None):
    """Return the glossary as a Markdown table in the page language, in the list's (chapter) order.

    terms: the list's entries; words: its per-language glossary words.
    Exec output is not link-rewritten by MkDocs, so a chapter is linked by its built URL (../05-mask/).
    """
    lang = page_lang(lang)
    if not terms:
        raise ValueError("terms must hold at least one entry")
    w = words[lang]
    rows = []
    for t in terms:
        missing = [f for f in ("key", "zh", "en", f"def_{lang}", "chapter") if not t.get(f)]
        if missing:
            raise ValueError(f"terms: entry {t.get('key')!r} lacks {missing}")
        n = int(t["chapter"].split("-", 1)[0])
        term = f'<span id="{t["key"]}">**{t[lang]}**</span>'
        cells = [t[OTHER[lang]], t[f"def_{lang}"]]
        cells = [
            c.replace("&", "&amp;").replace("<", "&lt;").replace("|", "&#124;") for c in cells
        ]  # a cell, not markup
        rows.append([term, *cells, f"[{w['chapter'].format(n=n)}](../{t['chapter'][:-3]}/)"])
    return md_table(w["columns"], rows)

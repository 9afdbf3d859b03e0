"""The page language and its string tables: one JSON file of labels per language, primer/labels/<lang>.json."""

import functools
import json
import os
from pathlib import Path

LANGS = ("zh", "en")
LABELS = Path(__file__).with_name("labels")


def page_lang(lang=None):
    """Return the language to write in: lang if given, else $PRIMER_LANG, else 'en'.

    This is the one way figures, tables, exercises and notebooks learn their language. The site
    build sets PRIMER_LANG for each page before its blocks run (a hook, per page); a notebook sets
    it with primer.notebook.use_language. An explicit lang (every figure builder takes lang=None)
    overrides the variable. Anything but 'zh' or 'en', from either source, raises ValueError.
    """
    lang = lang or os.environ.get("PRIMER_LANG") or "en"
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    return lang


@functools.cache
def _table(lang):
    return json.loads((LABELS / f"{lang}.json").read_text(encoding="utf-8"))


def labels(section, lang=None):
    """Return one section of the page language's string table; figure builders never hold a translation."""
    table = _table(page_lang(lang))
    if section not in table:
        raise ValueError(f"section must be one of the sections of labels/{page_lang(lang)}.json, got {section!r}")
    return table[section]

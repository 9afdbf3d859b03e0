"""The bilingual term list, docs/snippets/glossary/terms.yml, read once: its terms and its usage spellings."""

from functools import cache

import yaml
from site_reader import DOCS

TERMS_FILE = DOCS / "snippets" / "glossary" / "terms.yml"


@cache
def terms():
    """Return the list's terms, each with its key, zh and en spellings, definitions, chapter and forbidden variants."""
    return yaml.safe_load(TERMS_FILE.read_text(encoding="utf-8"))["terms"]


@cache
def usage():
    """Return the list's one spellings of what is not a glossary concept (this site, next token, ...)."""
    return yaml.safe_load(TERMS_FILE.read_text(encoding="utf-8"))["usage"]

"""MkDocs hook: tell the figure code the page's language, through the environment variable PRIMER_LANG.

Before a page's Markdown is converted (and its exec blocks run), on_page_markdown sets PRIMER_LANG to
the page's language ("zh" or "en"); primer reads it in exactly one function, primer.language.page_lang.
"""

import os

from primer_site.site_lang import build_language

LANG_ENV = "PRIMER_LANG"


def on_page_markdown(markdown, page, config, files):
    """Tell the figure code the page language, through PRIMER_LANG."""
    os.environ[LANG_ENV] = build_language(config)
    return markdown

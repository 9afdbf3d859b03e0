"""MkDocs hook: Material's search indexes each page's prose and inline code, not its code blocks, from a lighter page.

Material's search (its on_page_context) parses every tag of a page, even inside a block marked
`data-search-exclude` (Material's documented way), and keeps the markup of a few tags only (KEEP) and the text of
the rest. So, just before search reads the page, this hook hands it a copy with no code blocks (they crowded results
with `import numpy as np`) and with every paragraph, table and formula flattened to its text and kept tags; just
after, it puts the served page back. Search then parses about 10,000 start tags a rebuild of both languages, not
37,000 (December 2026; bench/RESULTS.md). What the regexes read: primer_site.plugin_touches.MARKUP_TOUCHES.
"""

import re

from mkdocs.plugins import CombinedEvent, event_priority

# A highlighted block, whole; a fence's own classes come first (```{.python .fragment}). Pygments never writes
# "</code></pre></div>" inside a block: its text is escaped.
BLOCK = re.compile(r'<div class="(?:[\w-]+ )*highlight"><pre>.*?</code></pre></div>', re.S)
# Material's search parser writes these tags into the index; of any other tag it keeps only the text inside.
KEEP = frozenset({"p", "code", "pre", "li", "ol", "ul", "sub", "sup"})
# A paragraph, a table or a formula: none holds a heading, so flattening one moves no text to another section.
FLAT = re.compile(r"<(p|table|math)\b[^>]*>.*?</\1>", re.S)
# Any other tag, whole: its attributes may quote a ">".
DROP = re.compile(rf"""</?(?!(?:{"|".join(sorted(KEEP))})\b)[a-z][\w:-]*(?:[^>"']|"[^"]*"|'[^']*')*>""", re.I)
# What the search parser treats by its tag or attribute: a block holding one is left as it is.
SPECIAL = re.compile(r"<(?:h[1-6]|script|style|object)\b|<!--|data-search-|linenodiv")
SERVED, READ = {}, {}  # page URL -> the page as served, and the copy search reads, while it reads it


def flat(block):
    """Return block with only the tags search keeps and the others' text; whole if it holds a SPECIAL tag."""
    if SPECIAL.search(block):
        return block
    return DROP.sub("", block)


def for_search(html):
    """Return the page as search should read it: no code blocks; paragraphs, tables and formulas as text."""
    return FLAT.sub(lambda m: flat(m.group(0)), BLOCK.sub("", html))


@event_priority(100)  # before search (0) and i18n (50)
def _before_search(context, page, config, nav):
    SERVED[page.url] = page.content
    page.content = READ[page.url] = for_search(page.content)
    return context


@event_priority(-100)  # after search
def _after_search(context, page, config, nav):
    if page.content != READ.pop(page.url):
        raise ValueError(
            f"{page.file.src_uri}: a plugin changed the page while search read it; putting it back would undo that"
        )
    page.content = SERVED.pop(page.url)
    return context


on_page_context = CombinedEvent(_before_search, _after_search)

"""MkDocs hook: Material's search indexes each page's prose and inline code, not its code blocks.

A chapter shows the source of every figure: a span per token, and results crowded with `import numpy as np`. So
on_page_content gives each highlighted block Material's documented `data-search-exclude` attribute; Material's search
(on_page_context) skips what it marks and, as its 9.8.2 source does (undocumented; tests/test_site.py checks), takes
`data-search-*="..."` attributes off the page once indexed, so the page is served as it was rendered. The block's
markup is Pygments' (primer_site.plugin_touches.MARKUP_TOUCHES).
"""

import re

from mkdocs.plugins import event_priority

# The opening tag of a highlighted block; a fence's own classes come first (```{.python .fragment})
BLOCK_OPEN = re.compile(r'<div class="(?:[\w-]+ )*highlight"(?=><pre>)')
EXCLUDE = ' data-search-exclude="code"'  # with a value: Material removes data-search-*="..." after indexing


@event_priority(-100)  # after every hook that reads a page's code blocks by their markup (runner)
def on_page_content(html, page, config, files):
    """Mark each code block for Material's search to leave out."""
    return BLOCK_OPEN.sub(lambda m: m.group(0) + EXCLUDE, html)

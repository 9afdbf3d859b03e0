"""MkDocs hook: Material's search indexes each page's prose and inline code, not its code blocks.

A chapter shows the source of every figure: a span per token, results crowded with `import numpy as np`, and most of
the search plugin's work, which parses every tag of a page, even inside a block marked `data-search-exclude` (Material's
documented way: the same index, but 1.1 CPU-s more per `make serve` rebuild of both languages, bench/RESULTS.md). So
on_page_content sets each block aside behind a numbered comment, search (on_page_context) reads the page without them,
and on_post_page, before any plugin reads the finished page, puts each block back. The block's markup is Pygments'
(primer_site.plugin_touches.MARKUP_TOUCHES).
"""

import re

from mkdocs.plugins import event_priority

# A highlighted block, whole; a fence's own classes come first (```{.python .fragment}). Pygments never writes
# "</code></pre></div>" inside a block: its text is escaped.
BLOCK = re.compile(r'<div class="(?:[\w-]+ )*highlight"><pre>.*?</code></pre></div>', re.S)
SLOT = re.compile(r"<!--primer-code-(\d+)-->")
SET_ASIDE = {}  # page URL -> its code blocks, from on_page_content until on_post_page


@event_priority(-100)  # after every hook that reads a page's code blocks by their markup (runner)
def on_page_content(html, page, config, files):
    """Replace each code block by a numbered comment; keep the blocks for on_post_page."""
    blocks = SET_ASIDE[page.url] = BLOCK.findall(html)
    numbers = iter(range(len(blocks)))
    return BLOCK.sub(lambda _: f"<!--primer-code-{next(numbers)}-->", html)


@event_priority(100)  # before every plugin that reads the finished page (htmlproofer, i18n)
def on_post_page(output, page, config):
    """Put the code blocks back; fail if the theme dropped or repeated one."""
    blocks = SET_ASIDE.pop(page.url, [])
    if [int(i) for i in SLOT.findall(output)] != list(range(len(blocks))):
        raise ValueError(
            f"{page.file.src_uri}: the page must show each of its {len(blocks)} code blocks once, in order"
        )
    return SLOT.sub(lambda m: blocks[int(m.group(1))], output)

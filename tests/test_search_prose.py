"""hooks/search_prose.py: code blocks leave a page while the search plugin reads it and come back unchanged."""

from types import SimpleNamespace

import pytest
from test_hooks_import import load_hook

hook = load_hook("search_prose")
CODE = (
    '<div class="highlight"><pre><span></span><code>'
    '<span class="n">x</span> <span class="o">=</span> 1\n</code></pre></div>'
)
HTML = f"<p>Before <code>x</code>.</p>\n{CODE}\n<p>Between.</p>\n{CODE.replace('1', '2')}\n"


def page(url="en/05-mask/"):
    return SimpleNamespace(url=url, file=SimpleNamespace(src_uri="en/05-mask.md"))


def test_blocks_are_set_aside_for_search_and_put_back_byte_for_byte():
    searched = hook.on_page_content(HTML, page(), None, None)
    assert "<pre>" not in searched and "<code>x</code>" in searched  # inline code stays for the index
    assert hook.on_post_page(f"<main>{searched}</main>", page(), None) == f"<main>{HTML}</main>"


def test_a_page_that_lost_a_block_fails_the_build():
    searched = hook.on_page_content(HTML, page(), None, None)
    with pytest.raises(ValueError, match="each of its 2 code blocks once"):
        hook.on_post_page(searched.replace("<!--primer-code-1-->", ""), page(), None)


def test_the_pattern_matches_the_code_blocks_the_site_config_renders():
    """If pymdownx.highlight or Pygments change their markup, this fails (`make matrix` runs the newest versions)."""
    import markdown

    md = markdown.Markdown(extensions=["pymdownx.highlight", "pymdownx.superfences"])
    html = md.convert("Text.\n\n```python\nx = [1, 2]\n```\n\nMore `code`.\n")
    assert len(hook.BLOCK.findall(html)) == 1 and "<pre>" not in hook.BLOCK.sub("", html)

"""hooks/search_prose.py: each code block is set aside while Material's search reads the page, then put back."""

from types import SimpleNamespace

import pytest
from hook_loader import load_hook

hook = load_hook("search_prose")
CODE = (
    '<div class="highlight"><pre><span></span><code>'
    '<span class="n">x</span> <span class="o">=</span> 1\n</code></pre></div>'
)
HTML = f"<p>Before <code>x</code>.</p>\n{CODE}\n<p>Between.</p>\n{CODE.replace('1', '2')}\n"


def page(url="en/05-mask/"):
    return SimpleNamespace(url=url, file=SimpleNamespace(src_uri="en/05-mask.md"))


def test_search_reads_no_block_and_the_served_page_is_unchanged():
    p = page()
    aside = hook.on_page_content(HTML, p, None, None)
    assert "highlight" not in aside and "<code>x</code>" in aside  # inline code stays for search
    assert aside.count("<!--primer-code-") == 2
    assert hook.on_post_page(f"<html>{aside}</html>", p, None) == f"<html>{HTML}</html>"
    assert not hook.SET_ASIDE


def test_a_block_with_a_fences_own_classes_is_set_aside_too():
    html = CODE.replace('class="highlight"', 'class="fragment highlight"')
    assert hook.on_page_content(html, page("x/"), None, None) == "<!--primer-code-0-->"
    assert hook.on_post_page("<!--primer-code-0-->", page("x/"), None) == html


def test_a_theme_that_drops_or_repeats_a_block_fails_the_build():
    p = page("y/")
    aside = hook.on_page_content(HTML, p, None, None)
    with pytest.raises(ValueError, match="each of its 2 code blocks once"):
        hook.on_post_page(aside + "<!--primer-code-1-->", p, None)
    hook.on_page_content(HTML, p, None, None)
    with pytest.raises(ValueError, match="each of its 2 code blocks once"):
        hook.on_post_page(aside.replace("<!--primer-code-0-->", ""), p, None)

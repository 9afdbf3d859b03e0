"""hooks/search_prose.py: Material's search reads a lighter copy of each page (no code blocks, prose flattened to its
text) and indexes what it would have indexed from the page; the served page is the page."""

import re
from types import SimpleNamespace

import pytest
from hook_loader import load_hook
from material.plugins.search.plugin import SearchIndex
from site_reader import page_names

hook = load_hook("search_prose")
CODE = (
    '<div class="highlight"><pre><span></span><code>'
    '<span class="n">x</span> <span class="o">=</span> 1\n</code></pre></div>'
)
# What a chapter holds around its code: headings (one inside an admonition), terms with quoted ">" in their tooltip,
# a table whose cells hold inline code and MathML, a formula, sub- and superscripts, links, a script, a comment.
PROSE = (
    '<h1 id="mask">The mask</h1>\n'
    '<p>A <abbr title="query &gt; key? no: q > k">causal</abbr> mask, <strong>lower</strong> triangle: '
    '<a href="#x"><code>mask[i, j]</code></a> with <math><msub><mi>q</mi><mi>i</mi></msub></math> and x<sup>2</sup>.'
    "</p>\n"
    '<div class="admonition note"><p class="admonition-title">Note</p>\n'
    '<h3 id="inside">Inside</h3>\n<p>Padding is <em>not</em> a token, H<sub>2</sub>O.</p>\n</div>\n'
    '<table>\n<thead>\n<tr>\n<th>mask</th>\n<th align="right">reads</th>\n</tr>\n</thead>\n<tbody>\n'
    '<tr>\n<td><code>causal</code></td>\n<td align="right">10</td>\n</tr>\n'
    "<tr>\n<td>填充 padding</td>\n<td><math><mn>3</mn><mo>&lt;</mo><mn>4</mn></math></td>\n</tr>\n</tbody>\n</table>\n"
    '<p><script type="text/javascript">var kept = 1;</script>after the script</p>\n'
    "<p>a comment <!-- here --> stays</p>\n"
    '<h2 id="then">Then</h2>\n<ul>\n<li>one <span class="k">item</span></li>\n<li>two</li>\n</ul>\n'
)


def page(content, url="en/05-mask/"):
    return SimpleNamespace(
        url=url, content=content, meta={}, toc=[], title="T", file=SimpleNamespace(src_uri="en/05-mask.md")
    )


def index(content):
    """Return Material's search entries for a page holding content, whitespace runs as one space."""
    entries = SearchIndex()
    entries.add_entry_from_context(page(content))
    return [{k: re.sub(r"\s+", " ", v) for k, v in e.items()} for e in entries.entries]


def test_search_reads_the_page_without_code_blocks_and_the_served_page_comes_back():
    html = f"{PROSE}{CODE}\n<p>Between.</p>\n{CODE.replace('1', '2')}\n"
    p = page(html)
    hook._before_search({}, p, None, None)
    assert "highlight" not in p.content and "<code>mask[i, j]</code>" in p.content  # inline code stays for search
    text = " ".join(e["text"] for e in index(p.content))
    assert "x = 1" not in text and "<code>mask[i, j]</code>" in text and "Between." in text
    hook._after_search({}, p, None, None)
    assert p.content == html and not hook.SERVED and not hook.READ


def test_flattened_prose_gives_materials_search_the_same_index_from_fewer_tags():
    light = hook.for_search(PROSE)
    assert index(light) == index(PROSE) and len(index(PROSE)) == 3  # the page's start, then its two headings
    assert light.count("<") < PROSE.count("<") / 2
    assert "var kept" in light and "<!-- here -->" in light  # a paragraph search treats specially stays whole
    assert "<abbr" not in light and "<math" not in light and "<table" not in light and "<td" not in light


def test_every_built_page_gives_the_same_index_from_its_light_copy(site):
    """Material's real parser over each page as built (its article): the copy search reads loses no word."""
    checked = 0
    for lang in ("zh", "en"):
        for name in page_names():
            folder = site / ("en" if lang == "en" else "") / ("" if name == "index.md" else name.removesuffix(".md"))
            html = (folder / "index.html").read_text(encoding="utf-8")
            article = hook.BLOCK.sub("", re.search(r"<article[^>]*>(.*)</article>", html, re.S).group(1))
            assert index(hook.for_search(article)) == index(article), folder
            checked += 1
    assert checked >= 38


def test_a_plugin_that_changes_the_page_while_search_reads_it_fails_the_build():
    p = page(PROSE, "y/")
    hook._before_search({}, p, None, None)
    p.content += "<p>added by another plugin</p>"
    with pytest.raises(ValueError, match="changed the page while search read it"):
        hook._after_search({}, p, None, None)
    hook.SERVED.clear()


def test_the_copy_is_made_before_search_and_the_page_put_back_after_it():
    from material.plugins.search.plugin import SearchPlugin

    search = getattr(SearchPlugin.on_page_context, "mkdocs_priority", 0)
    before, after = (getattr(f, "mkdocs_priority", 0) for f in hook.on_page_context.methods)
    assert before > search > after

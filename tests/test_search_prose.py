"""hooks/search_prose.py: each code block is marked for Material's search to leave out; inline code is not."""

from hook_loader import load_hook

hook = load_hook("search_prose")
CODE = (
    '<div class="highlight"><pre><span></span><code>'
    '<span class="n">x</span> <span class="o">=</span> 1\n</code></pre></div>'
)
HTML = f"<p>Before <code>x</code>.</p>\n{CODE}\n<p>Between.</p>\n{CODE.replace('1', '2')}\n"


def test_each_block_is_marked_and_nothing_else_changes():
    marked = hook.on_page_content(HTML, None, None, None)
    assert marked.count(f'<div class="highlight"{hook.EXCLUDE}><pre>') == 2
    assert marked.replace(hook.EXCLUDE, "") == HTML  # what Material's search takes off again once it indexed the page


def test_a_block_with_a_fences_own_classes_is_marked_too():
    html = CODE.replace('class="highlight"', 'class="fragment highlight"')
    assert hook.on_page_content(html, None, None, None).count(hook.EXCLUDE) == 1

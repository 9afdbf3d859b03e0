"""hooks/mathml.py: arithmatex's TeX becomes KaTeX's MathML at build time, and bad TeX fails the build."""

import logging
import re

import pytest
from hook_loader import load_hook
from mkdocs.exceptions import PluginError


@pytest.fixture(scope="module")
def hook():
    return load_hook("mathml")


class _Page:
    """The little of an MkDocs page the hook reads."""

    def __init__(self, toc=()):
        self.file = type("File", (), {"src_uri": "en/x.md"})()
        self.toc = list(toc)


class _TocItem:
    def __init__(self, title, children=()):
        self.title, self.children = title, list(children)


def test_inline_and_display_math_become_mathml_in_place(hook):
    html = '<p>a <span class="arithmatex">\\(h_t\\)</span> b</p>\n<div class="arithmatex">\\[\nx^2 \\le y\n\\]</div>'
    out = hook.on_page_content(html, _Page(), None, None)
    inline, display = re.findall(r'<(?:span|div) class="arithmatex">(<math.*?</math>)</(?:span|div)>', out, re.S)
    assert "<msub><mi>h</mi><mi>t</mi></msub>" in inline and 'display="block"' not in inline
    assert inline.startswith("<math><mrow>")  # no KaTeX wrapper span, no xmlns, no TeX annotation
    assert display.startswith('<math display="block"><mrow>') and "<msup><mi>x</mi><mn>2</mn></msup>" in display
    assert "\\(" not in out and "\\[" not in out and "h_t" not in out and "\\le" not in out
    assert out.startswith("<p>a <span") and out.endswith("</math></div>")


def test_html_escaped_tex_is_read_as_tex(hook):
    out = hook.render_math('<span class="arithmatex">\\(a &lt; b \\&amp; c\\)</span>', "x.md")
    assert "<mo>&lt;</mo>" in out and '<mi mathvariant="normal">&amp;</mi>' in out


def test_a_formula_katex_cannot_parse_fails_naming_page_and_formula(hook):
    with pytest.raises(PluginError, match=r"en/x\.md: tex: KaTeX cannot render '\\\\frac\{1\}\{'"):
        hook.on_page_content('<span class="arithmatex">\\(\\frac{1}{\\)</span>', _Page(), None, None)
    with pytest.raises(ValueError, match=r"Undefined control sequence"):
        hook.to_mathml("\\notacommand x", True)


def test_math_in_an_unexpected_form_is_not_left_silently(hook):
    with pytest.raises(PluginError, match="math left as TeX"):
        hook.render_math('<span class="arithmatex">$x$</span>', "x.md")


def test_what_katex_only_warns_about_is_a_build_warning(hook, caplog):
    with caplog.at_level(logging.WARNING, logger="mkdocs.hooks.mathml"):
        out = hook.render_math('<span class="arithmatex">\\(x = 中\\)</span>', "x.md")
    assert "<math>" in out
    assert any("x.md" in r.getMessage() and "unicodeTextInMathMode" in r.getMessage() for r in caplog.records)


def test_norm_bars_are_fences_not_relations(hook):
    # A browser spaces a bare ∥ as "parallel to"; \lVert x \rVert must read ‖x‖, while \mid keeps its space.
    norm = hook.to_mathml("\\lVert x\\rVert + \\left\\lVert y \\right\\rVert", False)[0]
    assert len(re.findall(r'<mo lspace="0em" rspace="0em"[^>]*>∥</mo>', norm)) == 4
    assert "<mo>∣</mo>" in hook.to_mathml("p(y \\mid x)", False)[0]


def test_headings_formulas_are_drawn_in_the_table_of_contents(hook):
    toc = [_TocItem("The error term \\(\\hat y - y\\)", [_TocItem("Cost \\(n^2 d\\)")])]
    hook.on_page_content("<p>no math</p>", _Page(toc), None, None)
    assert toc[0].title.startswith("The error term <math>") and "\\(" not in toc[0].title
    assert toc[0].children[0].title.startswith("Cost <math>")

"""MkDocs hook: math rendered at build time, as MathML, so a page loads no math JavaScript, CSS or fonts.

pymdownx.arithmatex (generic) leaves each formula as TeX in <span class="arithmatex">\\(...\\)</span> or
<div class="arithmatex">\\[...\\]</div>. The vendored KaTeX (hooks/katex/katex.min.js) runs once per
build process in QuickJS and turns each one into MathML Core, which browsers draw with their own math
font (Chromium >= 109, Firefox, Safari). A formula KaTeX cannot parse fails the build, naming the page
and the formula; what KaTeX would only warn about (TeX it accepts but LaTeX would not) is a build
warning, so the strict build fails on it too.
"""

import functools
import html
import json
import logging
import re
import threading
from pathlib import Path

from mkdocs.exceptions import PluginError

KATEX_JS = Path(__file__).resolve().parent / "katex" / "katex.min.js"
# arithmatex's generic output, TeX HTML-escaped; a \begin{env} block is wrapped in \[ \] like $$ $$.
MATH = re.compile(r'<(span|div) class="arithmatex">\\([(\[])(.*?)\\[)\]]</\1>', re.S)
TOC_MATH = re.compile(r"\\\((.*?)\\\)", re.S)  # a heading's formula in the table of contents: text only
# Left out of KaTeX's output: its wrapper span (styled by katex.css only), the xmlns HTML does not need, and
# the TeX source in <semantics><annotation>, which browsers never show (up to a tenth of a chapter's HTML).
KATEX_WRAPPER = re.compile(
    r'^<span class="katex"><math xmlns="http://www.w3.org/1998/Math/MathML"( display="block")?>'
    r'<semantics>(.*)<annotation encoding="application/x-tex">[^<]*</annotation></semantics>'
    r"</math></span>$",
    re.S,
)
# \lVert \rVert \lvert \rvert: KaTeX writes <mo stretchy="false">∥</mo>, and a browser spaces ∥ and ∣ as
# relations ("parallel to", "divides"), so ‖x‖ would read ‖ x ‖; KaTeX's own HTML sets them as fences.
NORM_BAR = re.compile(r'<mo (stretchy="false"|fence="true")>([∥∣])</mo>')  # \left\lVert too

log = logging.getLogger("mkdocs.hooks.mathml")
_lock = threading.Lock()  # one QuickJS context, never entered by two threads at once

RENDER_JS = """
var primerWarnings = [];
var console = {warn: function (m) { primerWarnings.push(String(m)); }};   // KaTeX's strict: "warn" writes here
function primerRender(tex, display) {
  primerWarnings = [];
  var mathml = katex.renderToString(tex, {displayMode: display, output: "mathml", throwOnError: true});
  return JSON.stringify({mathml: mathml, warnings: primerWarnings});
}
"""


@functools.cache
def _katex():
    """Return KaTeX's render function in a QuickJS context of its own (loaded once per process)."""
    import quickjs

    ctx = quickjs.Context()
    ctx.eval(RENDER_JS)
    ctx.eval(KATEX_JS.read_text(encoding="utf-8"))
    return ctx.get("primerRender")


@functools.cache
def to_mathml(tex, display):
    """Return (the <math> element of tex, KaTeX's warnings); ValueError naming the formula if KaTeX cannot parse it."""
    import quickjs

    with _lock:
        try:
            out = json.loads(_katex()(tex, display))
        except quickjs.JSException as e:
            reason = str(e).splitlines()[0]
            raise ValueError(f"tex: KaTeX cannot render {tex!r}: {reason}") from None
    mathml = KATEX_WRAPPER.sub(r"<math\1>\2</math>", out["mathml"])
    if not mathml.startswith("<math"):  # KaTeX's output changed shape: look at it before shipping it
        raise ValueError(f"tex: KaTeX gave no <math> element of the known shape for {tex!r}: {out['mathml'][:200]!r}")
    mathml = NORM_BAR.sub(r'<mo lspace="0em" rspace="0em" \1>\2</mo>', mathml)
    return mathml, tuple(out["warnings"])


def render_math(content, where):
    """Replace every arithmatex formula in content by its MathML; where names the page in errors."""

    def one(m):
        tag, display, tex = m.group(1), m.group(2) == "[", html.unescape(m.group(3)).strip()
        try:
            mathml, warnings = to_mathml(tex, display)
        except ValueError as e:
            raise PluginError(f"{where}: {e}") from None
        for w in warnings:
            log.warning("%s: KaTeX warns on %r: %s", where, tex, w)
        return f'<{tag} class="arithmatex">{mathml}</{tag}>'

    out = MATH.sub(one, content)
    left = re.search(r'class="arithmatex">(?!<math\b).{0,80}', out, re.S)
    if left:
        raise PluginError(f"{where}: math left as TeX, not in arithmatex's \\(...\\) or \\[...\\]: {left.group(0)!r}")
    return out


def _toc_titles(items):
    """Draw a heading's formula in the table of contents too (its title is the heading's text, TeX and all)."""
    for item in items:
        item.title = TOC_MATH.sub(lambda m: to_mathml(html.unescape(m.group(1)).strip(), False)[0], item.title)
        _toc_titles(item.children)


def on_page_content(content, page, config, files):
    """Render the page's math, in its text and its table of contents."""
    where = page.file.src_uri
    content = render_math(content, where)
    try:
        _toc_titles(page.toc)
    except ValueError as e:
        raise PluginError(f"{where} (table of contents): {e}") from None
    return content

"""Readers the tests share: the pages and notebooks of docs/, a built page's tables and figures, a snippet's code."""

import html as htmllib
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
LANGS = ("zh", "en")
# The session's site is built as the deploy builds it: under a sub-path of its address, with a repository link.
SITE_URL = "https://example.org/primer/sub/"
REPO_URL = "https://github.com/example/primer"
SUB_PATH = "primer/sub"


def page_names():
    """Return the Markdown pages of the zh side, as paths relative to docs/zh."""
    return sorted(p.relative_to(DOCS / "zh").as_posix() for p in (DOCS / "zh").rglob("*.md"))


def strings(node):
    """Yield every string of a nested JSON value (a label table, say)."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v)


def notebook_names():
    """Return the notebook pages of the zh side (mkdocs-jupyter renders each), as paths relative to docs/zh."""
    return sorted(p.relative_to(DOCS / "zh").as_posix() for p in (DOCS / "zh").rglob("*.ipynb"))


def html_path(site, lang, md_name):
    """Return the built HTML file of docs/<lang>/<md_name> (a .md page or an .ipynb notebook)."""
    stem = Path(md_name).with_suffix("")
    rel = Path("index.html") if stem.as_posix() == "index" else stem / "index.html"
    return site / rel if lang == "zh" else site / "en" / rel


def tables(html):
    """Return every table of a built page as rows of cell texts (tags stripped, entities decoded); a figure's
    no-JavaScript copy of its numbers (<noscript>, primer.figures.html.without_js) is not one of the page's tables."""
    out = []
    html = re.sub(r"<noscript>.*?</noscript>", "", html, flags=re.S)
    for table in re.findall(r"<table>(.*?)</table>", html, re.S):
        rows = []
        for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
            cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
            rows.append([htmllib.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in cells])
        out.append(rows)
    return out


def table_rows(html):
    """Return every table row of a built page, across all its tables, as cell texts."""
    return [row for table in tables(html) for row in table]


# A runnable block as hooks/runner.py marks it: its source, what the build printed, then the hidden mark.
RUNNABLE = re.compile(
    r'<div class="highlight"><pre><span></span><code>((?:(?!<div).)*?)</code></pre></div>\s*'
    r'<div class="highlight"><pre><span></span><code>([^<]*)</code></pre></div>\s*'
    r'<div class="primer-runner-mark" hidden data-runnable="([^"]+)"',
    re.S,
)


def text_of(fragment):
    """Return an HTML fragment's text: tags stripped, entities decoded."""
    return htmllib.unescape(re.sub(r"<[^>]+>", "", fragment))


def runnable_blocks(html):
    """Return [(snippet, code, what the build printed)] of a built page's runnable blocks, in order."""
    return [(s, text_of(code), text_of(out)) for code, out, s in RUNNABLE.findall(html)]


NEW_PLOT = re.compile(r'Plotly\.newPlot\(\s*"([^"]+)",\s*')
BETWEEN_ARGS = re.compile(r"\s*,?\s*")


def page_figures(html):
    """Return {div id: [data, layout, config]} of every Plotly.newPlot call in a built page."""
    figures, decode = {}, json.JSONDecoder().raw_decode
    for m in NEW_PLOT.finditer(html):
        args, pos = [], m.end()
        for _ in range(3):
            value, pos = decode(html, pos)
            args.append(value)
            pos = BETWEEN_ARGS.match(html, pos).end()
        figures[m.group(1)] = args
    return figures


def figure_controls(layout):
    """Yield (kind, index, control, steps) for each slider, then each menu (kind: 'buttons' or 'dropdown'), of a
    figure's layout."""
    for i, slider in enumerate(layout.get("sliders", [])):
        yield "slider", i, slider, slider.get("steps", [])
    for i, menu in enumerate(layout.get("updatemenus", [])):
        yield menu.get("type", "dropdown"), i, menu, menu.get("buttons", [])


def load_snippet(name):
    """Run docs/snippets/<name> with print silenced and return its namespace (the functions it defines)."""
    path = DOCS / "snippets" / name
    namespace = {"print": lambda *a, **k: None}
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)
    return namespace


COLOR = re.compile(r"rgba?\([\d., ]*\)")  # a colour scale's 'rgb(247,251,255)' is not a number a reader reads


def generated_texts(html):
    """Return the text the executed blocks printed onto a built page: table cells (code spans and footnote markers
    left out, as in the prose checks), then figures' strings (colours left out)."""
    prose = re.sub(r"<code>.*?</code>|<sup[^>]*>.*?</sup>", "", html, flags=re.S)  # code spans, footnote markers
    out = [cell for row in table_rows(prose) for cell in row]
    for data_layout_config in page_figures(html).values():
        out += [COLOR.sub("", t) for t in strings(data_layout_config[:2])]
    return [t for t in out if t.strip()]

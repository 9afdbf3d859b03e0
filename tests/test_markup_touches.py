"""Every regex a hook applies to another package's markup is listed in MARKUP_TOUCHES, and matches a real render.

Each render comes from the installed package itself (Pygments through pymdownx.highlight, markdown-exec's own
formatter, arithmatex, mkdocs-jupyter's converter, the vendored KaTeX), never from a hand-written sample, so a
release that changes its markup fails here (`make matrix` runs the newest versions).
"""

import ast
import json
import re

import markdown
import markdown_exec
import pytest
from hook_loader import HOOKS, MODULES, load_hook
from site_reader import DOCS

from primer_site.plugin_touches import MARKUP_TOUCHES

FENCE = {"name": "python", "class": "python", "validator": markdown_exec.validator, "format": markdown_exec.formatter}


def render(text):
    """Return text rendered by the site's code-block extensions, with markdown-exec's python fence."""
    md = markdown.Markdown(
        extensions=["attr_list", "pymdownx.highlight", "pymdownx.superfences", "pymdownx.arithmatex"],
        extension_configs={
            "pymdownx.superfences": {"custom_fences": [FENCE]},
            "pymdownx.arithmatex": {"generic": True},
        },
    )
    return md.convert(text)


def touch(hook, constant):
    return getattr(load_hook(hook), constant)


def html_regexes(path):
    """Return the module-level constants of a hook that hold a regex (or a literal) on HTML tags."""
    found = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Name) and node.targets[0].id.isupper():
            literals = [
                c.value for c in ast.walk(node.value) if isinstance(c, ast.Constant) and isinstance(c.value, str)
            ]
            if any(re.search(r"</?[a-z]", s) for s in literals):
                found.add(node.targets[0].id)
    return found


def test_every_hook_regex_on_html_is_in_the_table_and_every_entry_exists():
    listed = {(t.hook, t.constant) for t in MARKUP_TOUCHES}
    held = {(name, c) for name in MODULES for c in html_regexes(HOOKS / f"{name}.py")}
    assert held - {("runner", "KEYS")} <= listed, f"hooks' regexes on other packages' HTML not listed: {held - listed}"
    for hook, constant in listed:
        assert hasattr(load_hook(hook), constant), (hook, constant)


def test_the_unlisted_regex_check_can_fail(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("import re\nCELL = re.compile(r'<div class=\"jp-Cell\">')\nTIMEOUT = 30\n")
    assert html_regexes(planted) == {"CELL"}


def test_code_blocks_as_pygments_writes_them():
    html = render("Text `x`.\n\n```python\nx = [1, 2]\n```\n\n```{.python .fragment}\ny = 3\n```\n")
    blocks = touch("search_prose", "BLOCK").findall(html)
    assert len(blocks) == 2 and "x = [1, 2]" in re.sub("<[^>]+>", "", blocks[0]) and "fragment" in blocks[1]


def test_paragraphs_tables_and_formulas_as_python_markdown_and_katex_write_them():
    html = markdown.markdown("A *b* `c`.\n\n| x | y |\n|---|--:|\n| `1` | 2 |\n", extensions=["tables"])
    formula, _ = load_hook("mathml").to_mathml("q_i < k", False)
    flat = touch("search_prose", "FLAT")
    assert [m.group(1) for m in flat.finditer(html + formula)] == ["p", "table", "math"]
    table = next(m.group(0) for m in flat.finditer(html) if m.group(1) == "table")
    assert load_hook("search_prose").flat(table).split() == ["x", "y", "<code>1</code>", "2"]


def test_a_runnable_block_is_its_source_then_what_it_printed_as_markdown_exec_writes_them():
    html = render('```python exec="1" source="above" result="text" id="t"\nprint(6 * 7)\n```\n')
    divs = list(touch("runner", "CODE_DIV").finditer(html))
    assert len(divs) == 2 and not html[divs[0].end() : divs[1].start()].strip()
    assert "print" in divs[0].group(1) and divs[1].group(1).strip() == "42"


def test_formulas_as_arithmatex_writes_them():
    html = render("Inline $a_i$ and\n\n$$\nQK^T\n$$\n")
    assert [m.group(1) for m in touch("mathml", "MATH").finditer(html)] == ["span", "div"]


def test_katex_output_as_the_vendored_katex_writes_it():
    """to_mathml raises unless KATEX_WRAPPER matched KaTeX's output; NORM_BAR's rewrite shows as lspace="0em"."""
    out, _ = load_hook("mathml").to_mathml(r"\lVert x \rVert", True)
    assert out.startswith("<math") and "<semantics>" not in out and out.count('lspace="0em"') == 2


@pytest.mark.slow  # nbconvert renders a whole notebook (about 1.5 s)
def test_notebook_cells_and_styles_as_mkdocs_jupyter_writes_them():
    from mkdocs_jupyter.convert import nb2html

    notebooks, path = load_hook("notebooks"), DOCS / "en" / "notebooks" / "05-mask.ipynb"
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    solutions = sum("exercise-solution" in c.get("metadata", {}).get("tags", []) for c in cells)
    page = nb2html(str(path))
    folded = notebooks.wrap_solutions(page, "Solution")
    assert solutions and folded.count('<details class="note">') == solutions
    css, rest = notebooks.split_styles(page)
    assert css and notebooks.STYLE[0] not in rest


@pytest.mark.slow  # nbconvert renders a whole notebook (about 1.5 s)
def test_notebook_code_cells_as_mkdocs_jupyter_writes_them_get_the_runners_marks():
    import html

    from mkdocs_jupyter.convert import nb2html

    from primer_site.notebook_cells import page_cells

    runner, path = load_hook("runner"), DOCS / "en" / "notebooks" / "07-decoder.ipynb"
    cells = page_cells(path)
    marked, count = runner.mark_cells(nb2html(str(path)), cells, lambda cell: f' data-runnable="{cell.id}"')
    assert count == len(cells) > 5
    for cell in cells:  # each mark right after its own cell's highlighted source
        before = marked.split(f'<div class="primer-runner-mark" hidden data-runnable="{cell.id}">')[0]
        pre = before[before.rindex(runner.NOTEBOOK_CELL[1]) :]
        assert html.unescape(re.sub(r"<[^>]+>", "", pre)).strip() == cell.source.strip(), cell.id

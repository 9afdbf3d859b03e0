"""What the page tests share: find a table of a built page by its header, and check its rows."""

import html as htmllib
import re

from site_reader import table_rows, tables

CELL_HTML = re.compile(r"<t[dh]>(.*?)</t[dh]>", re.S)
BODY_CELL = re.compile(r"<td>(.*?)</td>", re.S)


def cell_html(html):  # -> [inner HTML of every <td>/<th>, in page order]
    """Return every table cell's inner HTML, in page order."""
    return CELL_HTML.findall(html)


def cell_texts(html):  # -> [text of every <td>, tags stripped, in page order]
    """Return the text of every body cell on the page, tags stripped."""
    return [htmllib.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in BODY_CELL.findall(html)]


def has_row(html, row):
    """Return True if the cells of row appear consecutively in one of the page's tables."""
    cs = cell_texts(html)
    return any(cs[i : i + len(row)] == row for i in range(len(cs)))


def table_with(html, header_cell):  # -> rows of cell texts, header first
    """Return the first table of a built page whose header row has a cell containing header_cell."""
    found = [t for t in tables(html) if t and any(header_cell in cell for cell in t[0])]
    assert found, f"no table with a {header_cell!r} column"
    return found[0]


def assert_rows(html, header_cell, expected):
    """Assert that the table found by header_cell holds exactly the expected body rows, in order."""
    assert table_with(html, header_cell)[1:] == [[str(c) for c in row] for row in expected]


def rows_starting(html, first):
    """Return every table row of a page whose first cell is first."""
    return [r for r in table_rows(html) if r and r[0] == first]


def figure_script(html, div):
    """Return the <script> that draws the figure with this div id."""
    found = re.search(r'Plotly\.newPlot\(\s*"' + re.escape(div) + r'".*?</script>', html, re.S)
    assert found, f"no Plotly.newPlot for {div}"
    return found.group(0)


def unescaped(html):
    """Undo the \\uXXXX escapes plotly writes inside its <script> JSON."""
    return re.sub(r"\\u([0-9a-fA-F]{4})", lambda m: chr(int(m.group(1), 16)), html)

"""Markdown tables and number formats for what an executed block prints into a page."""

import re

from primer.language import page_lang
from primer.rounding import BOUND, is_rounding

# Central finite differences agree with an exact derivative to about 1e-9 here; how far below 1e-6
# depends on the CPU's rounding, so the pages print only the bound.
FD_AGREE = 1e-6


def pct(x, digits=1):
    """Format a fraction as a percentage: 0.6439 -> '64.4%' (no space, as Chinese technical writing has it)."""
    return f"{100 * float(x):.{digits}f}%"


def integer(n, lang=None):
    """Format a whole number as the page's language writes it: 4096 in Chinese, 4,096 in English."""
    if isinstance(n, bool) or int(n) != n:
        raise ValueError(f"n must be a whole number, got {n!r}")
    return f"{int(n)}" if page_lang(lang) == "zh" else f"{int(n):,}"


def hover_integer(lang=None):
    """Return the plotly (d3) format of a whole number in a hover label: ':d' in Chinese, ':,' (4,096) in English."""
    return ":d" if page_lang(lang) == "zh" else ":,"


def cite(source, released, table):
    """Write a published shape's source (primer.published) in the page's words: released and table stand for
    '; released config' and 'Table ' (the labels' '；发布的 config' and '表 ' in Chinese)."""
    return source.replace("; released config", released).replace("Table ", table)


def minus(text):
    """Write the minus signs of a formatted number as '−' (U+2212), as the prose does: '-0.86' -> '−0.86'."""
    return re.sub(r"(?<![\w.])-(?=\d)", "−", text)


def md_table(headers, rows):
    """Return a Markdown table; every cell is str()-ed."""
    lines = ["| " + " | ".join(str(h) for h in headers) + " |", "| " + " | ".join("---" for _ in headers) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def fmt_below(x, bound, digits=1):
    """Format an error as '< 1e-06' when it is under bound (its digits depend on the CPU's rounding), else '3.1e-04'."""
    return f"< {bound:.0e}" if abs(float(x)) < bound else f"{float(x):.{digits}e}"


def fmt_change(x, digits=1):
    """Format a measured difference: '< 1e-12' if it is rounding (its digits depend on the CPU), else '3.1e-01'."""
    return f"< {BOUND:.0e}" if is_rounding(x) else f"{float(x):.{digits}e}"


def visible_char(c):
    """Show a space as '␣', so a table cell or a tick holding one character is never blank."""
    return "␣" if c == " " else c


def ranges(cols):
    """Format sorted column indices as ranges: [0, 1, 2, 5] -> '0–2, 5'."""
    out, start = [], None
    for k, c in enumerate(cols):
        if start is None:
            start = c
        if k + 1 == len(cols) or cols[k + 1] != c + 1:
            out.append(str(start) if start == c else f"{start}–{c}")
            start = None
    return ", ".join(out)

"""Markdown tables and number formats for what an executed block prints into a page."""


def pct(x, digits=1):
    """Format a fraction as a percentage: 0.6439 -> '64.4 %'."""
    return f"{100 * float(x):.{digits}f} %"


def md_table(headers, rows):
    """Return a Markdown table; every cell is str()-ed."""
    lines = ["| " + " | ".join(str(h) for h in headers) + " |",
             "| " + " | ".join("---" for _ in headers) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"

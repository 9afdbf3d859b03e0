"""Figure builders: arrays in, a plotly Figure out. No formulas live here."""

from primer.figures._style import page_lang, to_html
from primer.figures.tables import md_table, pct

__all__ = ["md_table", "page_lang", "pct", "to_html"]

"""Figures and tables of each chapter (one module per chapter slug), and what they share: look, controls, HTML."""

from primer.figures.html import to_html
from primer.figures.tables import md_table, pct
from primer.language import page_lang

__all__ = ["md_table", "page_lang", "pct", "to_html"]

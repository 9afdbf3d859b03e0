"""The notebooks' exercises: what a notebook imports (`grade`, `labels`, `use_language`), and the parts behind it.

display sets the notebook's language, compare says why two answers differ, cases draws each chapter's exercise
inputs, registry names every exercise with primer's answer and grades the reader's, and experiments checks what a
notebook's small experiment printed.
"""

from primer.language import labels
from primer.notebook.display import use_language
from primer.notebook.registry import grade

__all__ = ["grade", "labels", "use_language"]

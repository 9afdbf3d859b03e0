"""A chapter notebook's code cells as the in-page runner sees them: which ones the page runs, which ones are checks.

hooks/runner.py marks these cells on a notebook page and packs what they import into primer.zip; hooks/notebooks.py
counts a chapter's exercises for its progress line. The page's Python has numpy, primer and the standard library
only: a cell importing anything else (matplotlib, for the plots) is left to Jupyter, and so is a solution cell, which
stays folded until the reader opens it.
"""

import html
import json
import re
import sys
from collections import namedtuple

from primer.language import labels
from primer_site.primer_sources import imported_names

Cell = namedtuple("Cell", "id source exercise")  # exercise: the name a check cell grades, else ""
IN_PAGE = {"numpy", "primer", *sys.stdlib_module_names}  # the top-level modules the page's Python can import
NOT_IN_PAGE = ("exercise-solution",)  # cell tags the page never runs
PROGRESS_KEYS = ("progress", "progress_clear")  # the "runner" labels a progress line needs
GRADE = re.compile(r'grade\("(\w+)"')  # a check cell: grade("name", fn), written by tools/notebooks.py


def runs_in_page(source):
    """Return whether a cell's code imports only what the page's Python has."""
    names = imported_names(source)  # parsed once per cell text while `mkdocs serve` runs
    return names is not None and {name.split(".")[0] for name in names} <= IN_PAGE


def notebook_code(path):  # -> [(cell id, source, tags)] of every code cell, in order
    """Return every code cell of a notebook file: its id, its source and its tags."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [
        (c["id"], "".join(c["source"]), c.get("metadata", {}).get("tags", []))
        for c in cells
        if c["cell_type"] == "code"
    ]


def page_cells(path):  # -> [Cell] the code cells the page runs, in order
    """Return the code cells of a notebook that its page runs, each with the exercise it checks ("" if none)."""
    out = []
    for cell_id, source, tags in notebook_code(path):
        if not set(tags) & set(NOT_IN_PAGE) and runs_in_page(source):
            check = GRADE.match(source) if "exercise-grade" in tags else None
            out.append(Cell(cell_id, source, check.group(1) if check else ""))
    return out


def exercises(path):  # -> [name] of the notebook's checks, in order
    """Return the names of the exercises a notebook checks."""
    return [c.exercise for c in page_cells(path) if c.exercise]


def progress_line(chapter, names, lang, tag="p"):
    """Return the element runner.js fills with how many of a chapter's exercises this browser has seen passed."""
    text = labels("runner", lang)
    words = html.escape(json.dumps({k: text[k] for k in PROGRESS_KEYS}, ensure_ascii=False, sort_keys=True), True)
    return (
        f'<{tag} class="primer-progress" hidden data-progress="{html.escape(chapter)}"'
        f' data-exercises="{html.escape(json.dumps(names), quote=True)}" data-progress-labels="{words}"></{tag}>'
    )

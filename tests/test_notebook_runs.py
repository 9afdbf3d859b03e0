"""The build runs each notebook with mkdocs-jupyter (a failing cell fails it); `make serve` shows them unexecuted, saying how to run them."""

import json
import re
from pathlib import Path

import nbformat
import pytest

from test_build import GOOD, scratch_site

pytestmark = pytest.mark.site


def notebook(*cells):
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# A notebook")] + [nbformat.v4.new_code_cell(c) for c in cells]
    return nbformat.writes(nb)


def site_with(tmp_path, text, **env):
    pages = {(lang, "notebooks/nb.ipynb"): text for lang in ("zh", "en")}
    return scratch_site(tmp_path, GOOD, GOOD, pages=pages, env=env)


def test_a_notebook_runs_at_build_and_its_page_shows_the_outputs(tmp_path):
    proc = site_with(tmp_path, notebook("print(6 * 7)"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    for page in ("notebooks/nb/index.html", "en/notebooks/nb/index.html"):
        html = (tmp_path / "out" / page).read_text(encoding="utf-8")
        assert re.search(r"jp-OutputArea.*42", html, re.S) and "jupyter lab" not in html
    assert json.loads((tmp_path / "out" / "notebooks" / "nb.ipynb").read_text())["cells"][1]["outputs"] == []


def test_a_failing_cell_fails_the_build_naming_it(tmp_path):
    proc = site_with(tmp_path, notebook("raise ValueError('planted failure')"))
    assert proc.returncode != 0 and "planted failure" in proc.stderr, proc.stderr[-3000:]


def test_unexecuted_notebook_pages_say_how_to_run_them(tmp_path):
    proc = site_with(tmp_path, notebook("raise ValueError('never run')"), PRIMER_NOTEBOOKS_EXECUTE="false")
    assert proc.returncode == 0, proc.stderr[-3000:]
    zh = (tmp_path / "out" / "notebooks" / "nb" / "index.html").read_text(encoding="utf-8")
    en = Path(tmp_path / "out" / "en" / "notebooks" / "nb" / "index.html").read_text(encoding="utf-8")
    assert "jupyter lab" in zh and "jupyter lab" in en and "run every cell" in en
    assert "never run" in en and "Traceback" not in en

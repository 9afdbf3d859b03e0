"""The build runs notebooks on warm kernels, keyed on what they import (hooks/notebooks.py): each must come out as a fresh kernel would run it."""

import sys

import nbformat
import pytest

from conftest import DOCS, ROOT

sys.path.insert(0, str(ROOT / "hooks"))
try:
    import notebooks as hook
    import primer_sources  # noqa: F401 - imported here while hooks/ is on the path
finally:
    sys.path.pop(0)


def outputs(nb):
    return [(cell.get("execution_count"), cell.get("outputs")) for cell in nb.cells if cell.cell_type == "code"]


def run(kernel, path):
    nb = nbformat.read(path, as_version=4)
    kernel.run(nb)
    return nb


@pytest.fixture(scope="module")
def warm():
    """One kernel for the tests of this module, as the build keeps one for many notebooks: each test's notebooks run
    after whatever the tests before it ran there."""
    kernel = hook.WarmKernel()
    yield kernel
    kernel.close()


def test_a_notebook_after_another_on_one_kernel_equals_it_on_a_fresh_kernel(warm):
    first, second = DOCS / "zh" / "notebooks" / "05-mask.ipynb", DOCS / "en" / "notebooks" / "05-mask.ipynb"
    run(warm, first)      # sets a CJK font and the language in primer, defines names, draws figures
    after = run(warm, second)
    fresh_kernel = hook.WarmKernel()
    try:
        fresh = run(fresh_kernel, second)
    finally:
        fresh_kernel.close()
    assert outputs(after) == outputs(fresh)
    assert [n for n, _ in outputs(fresh)] == list(range(1, len(outputs(fresh)) + 1))   # counted from 1, as in a new kernel
    assert any("image/png" in o.get("data", {}) for _, outs in outputs(fresh) for o in outs)


def test_the_reset_clears_what_a_notebook_left_behind(warm):
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("leftover = 1\nimport matplotlib\nmatplotlib.rcParams['font.size'] = 31")]
    warm.run(nb)
    nb.cells = [nbformat.v4.new_code_cell("import matplotlib\nprint('leftover' in globals(), matplotlib.rcParams['font.size'])")]
    warm.run(nb)
    assert nb.cells[0].outputs[0]["text"].split() == ["False", "10.0"]


def test_a_line_printed_in_pieces_is_one_output_whatever_the_flush_timing(warm):
    """A flush mid-line splits a print into two messages, as ipykernel's flush timer sometimes does; the build keeps one."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell(
        "import sys\nprint('a', end=''); sys.stdout.flush()\nprint('b')\n"
        "from IPython.display import display; display('between')\nprint('c')")]
    warm.run(nb)
    assert [(o["output_type"], o.get("text")) for o in nb.cells[0].outputs] == [
        ("stream", "ab\n"), ("display_data", None), ("stream", "c\n")]   # merged only where consecutive: order kept


def test_a_notebook_runs_again_exactly_when_something_it_imports_changes(tmp_path):
    """The key of an executed copy: the notebook's text, the primer modules its code imports (followed), primer's data."""
    from primer_sources import SourceGraph

    pkg = tmp_path / "primer"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "masks.py").write_text("from primer import softmax\n")
    (pkg / "softmax.py").write_text("X = 1\n")
    (pkg / "other.py").write_text("Y = 1\n")
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_code_cell("%matplotlib inline\nfrom primer.masks import *"), nbformat.v4.new_markdown_cell("# T")]
    data = nbformat.writes(nb).encode()

    def key(data=data):
        return hook._key(data, SourceGraph(pkg), "versions")

    before = key()
    (pkg / "other.py").write_text("Y = 2\n")
    assert key() == before, "a module the notebook does not import"
    (pkg / "softmax.py").write_text("X = 2\n")
    after = key()
    assert after != before, "a module imported through another one"
    (pkg / "labels.json").write_text("{}")
    assert key() != after, "a data file of primer"
    assert key(data.replace(b"# T", b"# U")) != key(), "the notebook's own text"
    assert hook._key(data, SourceGraph(pkg), "other versions") != key()

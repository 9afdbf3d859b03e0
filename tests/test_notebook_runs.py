"""The build runs notebooks on warm kernels (hooks/notebooks.py): each must come out as a fresh kernel would run it."""

import sys

import nbformat

from conftest import DOCS, ROOT

sys.path.insert(0, str(ROOT / "hooks"))
try:
    import notebooks as hook
finally:
    sys.path.pop(0)


def outputs(nb):
    return [(cell.get("execution_count"), cell.get("outputs")) for cell in nb.cells if cell.cell_type == "code"]


def run(kernel, path):
    nb = nbformat.read(path, as_version=4)
    kernel.run(nb)
    return nb


def test_a_notebook_after_another_on_one_kernel_equals_it_on_a_fresh_kernel():
    first, second = DOCS / "zh" / "notebooks" / "05-mask.ipynb", DOCS / "en" / "notebooks" / "05-mask.ipynb"
    warm = hook.WarmKernel()
    try:
        run(warm, first)      # sets a CJK font and the language in primer, defines names, draws figures
        after = run(warm, second)
    finally:
        warm.close()
    fresh_kernel = hook.WarmKernel()
    try:
        fresh = run(fresh_kernel, second)
    finally:
        fresh_kernel.close()
    assert outputs(after) == outputs(fresh)
    assert [n for n, _ in outputs(fresh)] == list(range(1, len(outputs(fresh)) + 1))   # counted from 1, as in a new kernel
    assert any("image/png" in o.get("data", {}) for _, outs in outputs(fresh) for o in outs)


def test_the_reset_clears_what_a_notebook_left_behind():
    warm = hook.WarmKernel()
    try:
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell("leftover = 1\nimport matplotlib\nmatplotlib.rcParams['font.size'] = 31")]
        warm.run(nb)
        nb.cells = [nbformat.v4.new_code_cell("import matplotlib\nprint('leftover' in globals(), matplotlib.rcParams['font.size'])")]
        warm.run(nb)
    finally:
        warm.close()
    assert nb.cells[0].outputs[0]["text"].split() == ["False", "10.0"]

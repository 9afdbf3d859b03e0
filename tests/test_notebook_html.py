"""hooks/notebook_html.py renders a notebook exactly as mkdocs-jupyter would on a cache miss, so its cache entry can stand in."""

import base64
import json
import subprocess
import sys

import nbformat
import pytest
from mkdocs.config import load_config
from mkdocs.structure.files import File
from mkdocs.structure.pages import Page

from conftest import ROOT

sys.path.insert(0, str(ROOT / "hooks"))
try:
    import notebook_html
finally:
    sys.path.pop(0)

# a 1x1 PNG, as an executed matplotlib cell carries one
PNG = base64.b64encode(bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                                     "1f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")).decode()


@pytest.fixture(scope="module")
def executed(tmp_path_factory):
    """A small executed notebook: a title, prose with math, code with a printed line and an image."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [nbformat.v4.new_markdown_cell("# A title\n\nSome prose, $x^2$.\n\n## A section"),
                nbformat.v4.new_code_cell("print(1)", execution_count=1,
                                          outputs=[nbformat.v4.new_output("stream", name="stdout", text="1\n")]),
                nbformat.v4.new_code_cell("plot()", execution_count=2,
                                          outputs=[nbformat.v4.new_output("display_data", data={"image/png": PNG})])]
    nb.cells[1].metadata["tags"] = ["exercise-solution"]
    path = tmp_path_factory.mktemp("nb") / "executed.ipynb"
    nbformat.write(nb, path)
    return path


@pytest.fixture(scope="module")
def plugin_and_config():
    config = load_config(str(ROOT / "mkdocs.yml"), repo_url="https://example.org/r")   # edit_uri alone warns
    return config.plugins["mkdocs-jupyter"], config


def rendered_by_mkdocs_jupyter(path, plugin, config):
    """Return (HTML, toc, title) of the notebook as mkdocs-jupyter's own page rendering makes them, its cache off."""
    plugin.config["cache"] = False
    try:
        file = File("zh/notebooks/05-mask.ipynb", config.docs_dir, config.site_dir, False)
        file.abs_src_path = str(path)
        page = Page(None, file, config)
        plugin.on_pre_page(page, config=config, files=[])
        page.render(config, [])
    finally:
        plugin.config["cache"] = True
    return page.content, [t.title for t in page.toc], page.title


def test_the_renderer_writes_what_mkdocs_jupyter_renders(executed, plugin_and_config, tmp_path):
    plugin, config = plugin_and_config
    content, toc, title = rendered_by_mkdocs_jupyter(executed, plugin, config)
    out = tmp_path / "entry.json"
    options = {k: v for k, v in plugin.config.items() if isinstance(v, (str, int, float, bool, dict, list, type(None)))}
    proc = subprocess.run([sys.executable, str(ROOT / "hooks" / "notebook_html.py")], cwd=ROOT, text=True,
                          input=json.dumps({"src": str(executed), "out": str(out), "options": options}) + "\n",
                          capture_output=True, timeout=120)
    assert proc.stdout.strip() == "ok", proc.stdout + proc.stderr
    entry = json.loads(out.read_text(encoding="utf-8"))
    assert entry["content"] == content and "jp-OutputArea" in content and "data:image/png;base64," in content
    assert entry["title"] == title == "A title"
    assert [t["name"] for t in entry["toc_tokens"]] == toc == ["A title"]


def test_a_notebook_that_cannot_be_rendered_is_reported(tmp_path):
    bad = tmp_path / "bad.ipynb"
    bad.write_text("not a notebook")
    proc = subprocess.run([sys.executable, str(ROOT / "hooks" / "notebook_html.py")], cwd=ROOT, text=True,
                          input=json.dumps({"src": str(bad), "out": str(tmp_path / "e.json"), "options": {}}) + "\n",
                          capture_output=True, timeout=120)
    assert proc.stdout.startswith("error: ") and not (tmp_path / "e.json").exists()

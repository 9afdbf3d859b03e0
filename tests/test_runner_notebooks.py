"""The in-page runner on the notebook pages: which cells run, one namespace a page, checks remembered in the browser,
and primer.zip serving the .ipynb in Jupyter."""

import json
import re
import subprocess
import sys
import time
import zipfile

import pytest
from browser_util import axe_problems
from hook_loader import load_hook
from node_tools import node
from runner_pages import open_offline, run_under_node
from site_reader import LANGS, ROOT

from primer.notebook.registry import verdict
from primer_site import runner_worker
from primer_site.notebook_cells import page_cells, runs_in_page

runner = load_hook("runner")
NOTEBOOKS = sorted((ROOT / "docs" / "en" / "notebooks").glob("*.ipynb"))


def solutions(path):
    """Return {exercise: its solution's source} of a notebook file."""
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return {c["id"].removesuffix("-solution"): "".join(c["source"]) for c in cells if c["id"].endswith("-solution")}


# ---- unit ----


def test_the_page_runs_the_cells_its_python_can_import_and_leaves_plots_and_solutions_to_jupyter():
    assert runs_in_page("import numpy as np\nfrom primer.masks import causal_mask\nimport math")
    assert not runs_in_page("import matplotlib.pyplot as plt") and not runs_in_page("import torch")
    ids = [c.id for c in page_cells(ROOT / "docs" / "en" / "notebooks" / "07-decoder.ipynb")]
    assert ids[:4] == ["language", "code-0", "experiment-0", "experiment-0-check"]
    assert "plot-0" not in ids and not [i for i in ids if i.endswith("-solution")]
    bugs = page_cells(ROOT / "docs" / "en" / "notebooks" / "14-mask-bugs.ipynb")
    assert len([c for c in bugs if c.id.endswith("-stub")]) == len([c for c in bugs if c.exercise]) == 9


def test_a_session_keeps_its_namespace_and_a_block_without_one_starts_fresh():
    printed = []
    post = lambda text, cut: printed.append(text)  # noqa: E731
    assert runner_worker.run("x = 41", post, session="test-page") == ("", False)
    assert runner_worker.run("print(x + 1)", post, session="test-page") == ("", False)
    error, _ = runner_worker.run("print(x)", post)
    assert "".join(printed) == "42\n" and error.endswith("NameError: name 'x' is not defined")
    runner_worker.SESSIONS.pop("test-page")


@pytest.mark.parametrize("lang", LANGS)
def test_the_passed_pattern_matches_a_passed_check_and_nothing_else_in_python_and_javascript(lang, monkeypatch):
    monkeypatch.setenv("PRIMER_LANG", lang)
    from primer import masks

    passed = verdict("causal_mask", lambda n: masks.causal_mask(n))[1]
    wrong = verdict("causal_mask", lambda n: ~masks.causal_mask(n))[1]
    other = verdict("full_mask", masks.full_mask)[1]
    pattern = runner.passed_pattern("causal_mask", lang)
    found = [bool(re.search(pattern, "before\n" + m + "\n", re.M)) for m in (passed, wrong, other)]
    assert found == [True, False, False]
    script = "const [p, ...ms] = JSON.parse(process.argv[1]); console.log(JSON.stringify(ms.map(m => new RegExp(p, 'm')"
    script += ".test('before\\n' + m + '\\n'))))"
    proc = subprocess.run(
        [node(), "-e", script, json.dumps([pattern, passed, wrong, other])], capture_output=True, text=True, check=True
    )
    assert json.loads(proc.stdout) == [True, False, False]


class Config(dict):
    """A build pass's config as the hooks read it: config["repo_url"] and config.theme["language"]."""

    theme = {"language": "en"}


@pytest.mark.parametrize("repo_url", [None, "https://github.com/example/primer"])
def test_a_notebook_page_links_the_repository_only_when_the_build_knows_it_and_always_offers_primer_zip(repo_url):
    from types import SimpleNamespace

    notebooks = load_hook("notebooks")
    page = SimpleNamespace(
        file=SimpleNamespace(src_uri="en/notebooks/07-decoder.ipynb", url="en/notebooks/07-decoder/")
    )
    top = notebooks.on_page_content("<p>cells</p>", page, Config(repo_url=repo_url), None).split("<p>cells</p>")[0]
    assert 'href="../../../assets/runner/primer.zip" download' in top and "python -m zipfile -e primer.zip ." in top
    assert ("https://github.com/example/primer" in top) == bool(repo_url) and ("github" in top) == bool(repo_url)


def test_primer_zip_holds_what_the_notebooks_import(tmp_path):
    names = set(zipfile.ZipFile(__import__("io").BytesIO(runner.primer_zip())).namelist())
    assert {
        "primer/notebook/registry.py",
        "primer/notebook/experiments.py",
        "primer/experiments/broken_masks.py",
    } <= names


@pytest.mark.slow  # a fresh Python per run: the zip alone must serve the notebooks in Jupyter
def test_unpacked_primer_zip_runs_every_notebook_as_the_page_says(tmp_path):
    """What the notebook page tells a Jupyter reader: unpack primer.zip beside the notebook; every code cell runs."""
    (tmp_path / "primer.zip").write_bytes(runner.primer_zip())
    subprocess.run([sys.executable, "-m", "zipfile", "-e", "primer.zip", "."], cwd=tmp_path, check=True)
    cells = {
        p.stem: ["".join(c["source"]) for c in json.loads(p.read_text())["cells"] if c["cell_type"] == "code"]
        for p in NOTEBOOKS
    }
    program = (
        "import json, sys\nimport matplotlib\nmatplotlib.use('Agg')\nimport primer\n"
        "assert primer.__file__.startswith(sys.path[0]), primer.__file__\n"
        "for name, cells in json.load(open('cells.json')).items():\n"
        "    namespace = {'__name__': '__main__'}\n"
        "    for code in cells:\n        exec(code, namespace)\n"
        "print('ran', len(json.load(open('cells.json'))))\n"
    )
    (tmp_path / "cells.json").write_text(json.dumps(cells))
    proc = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.strip().endswith(f"ran {len(NOTEBOOKS)}")


# ---- site ----


@pytest.mark.site
def test_each_notebook_page_marks_the_cells_it_runs_and_says_where_primer_comes_from(site):
    for lang in LANGS:
        for path in NOTEBOOKS:
            page = (site / ("" if lang == "zh" else "en") / "notebooks" / path.stem / "index.html").read_text()
            cells = page_cells(path)
            marks = re.findall(r'<div class="primer-runner-mark" hidden data-runnable="([\w-]+)" data-session="', page)
            assert marks == [c.id for c in cells], path.stem
            names = [c.exercise for c in cells if c.exercise]
            assert f'data-exercises="{json.dumps(names).replace(chr(34), "&quot;")}"' in page
            up = "../../" if lang == "zh" else "../../../"
            assert f'href="{up}assets/runner/primer.zip" download' in page
            assert 'href="https://github.com/' in page  # the build knew the repository (tests set PRIMER_REPO_URL)
            assert not re.search(r'(?:src|href)="[^"]*(?:pyodide|worker\.js)', page)
        chapter = (site / ("" if lang == "zh" else "en") / "07-decoder" / "index.html").read_text()
        assert 'class="primer-progress" hidden data-progress="07-decoder"' in chapter


@pytest.mark.site
def test_every_notebook_cell_runs_under_pyodide_in_its_session_as_written_and_with_the_solutions(site, tmp_path):
    """As written every check says "not yet" and the six masks' check passes; with the solutions, every check
    passes. The six-mask cell's time under Node's Pyodide is printed (bench/RESULTS.md)."""
    blocks = []
    for path in NOTEBOOKS:
        answers = solutions(path)
        for version in ("written", "solved"):
            for cell in page_cells(path):
                stem = cell.id.removesuffix("-stub")
                code = answers[stem] if version == "solved" and cell.id.endswith("-stub") else cell.source
                blocks.append({"key": f"{path.stem}/{version}/{cell.id}", "code": code, "session": path.stem + version})
    started = time.perf_counter()
    report = run_under_node(site, blocks, tmp_path, timeout=900)["results"]
    for key, result in report.items():
        assert result["error"] == "", f"{key}: {result['error']}"
        if key.endswith("-grade"):
            assert ("not yet" if "/written/" in key else ": passed") in result["output"], (key, result["output"])
    six = report["07-decoder/written/experiment-0"]
    assert report["07-decoder/written/experiment-0-check"]["output"].startswith("✓ six masks")
    print(f"six-mask cell under Pyodide (Node): {six['seconds']:.1f} s; all: {time.perf_counter() - started:.0f} s")


# ---- browser: a reader does an exercise in the page, offline ----

STATUS = "([b, t]) => b.querySelector('[role=status]').textContent.startsWith(t)"


def cell_bar(page, cell_id):
    return page.locator(f'.primer-runner-mark[data-runnable="{cell_id}"] + .primer-runner')


@pytest.mark.browser
def test_an_exercise_in_the_page_wrong_then_right_is_remembered_after_reload_and_clear_forgets_it(
    site, browser, sub_path_url
):
    url = sub_path_url + "en/notebooks/07-decoder/"
    page, requests, foreign = open_offline(browser, url)
    assert not [u for u in requests if "pyodide" in u or "/runner/worker" in u or "primer.zip" in u]
    text = json.loads(page.locator(".primer-runner-mark").first.get_attribute("data-runner-labels"))
    progress = page.locator("p.primer-progress [role=status]")
    assert progress.text_content() == text["progress"].format(passed=0, total=3)
    grade = cell_bar(page, "next_token_pairs-grade")
    started = time.perf_counter()
    run = grade.get_by_role("button", name=text["run"], exact=True)
    run.focus()
    page.keyboard.press("Enter")  # keyboard operable: the cells above run first, in order, then the check
    done = text["done"].split("{")[0]
    page.wait_for_function(STATUS, arg=[grade.element_handle(), done], timeout=180_000)
    first_run = time.perf_counter() - started
    assert "not yet" in grade.locator(".primer-runner-out pre").text_content()
    six = cell_bar(page, "experiment-0-check").locator(".primer-runner-out pre").text_content()
    assert six.startswith("✓ six masks")
    six_status = cell_bar(page, "experiment-0").get_by_role("status").text_content()
    stub = cell_bar(page, "next_token_pairs-stub")
    stub.get_by_role("button", name=text["edit"], exact=True).click()
    editor = page.get_by_role("textbox", name=text["editor"])
    editor.wait_for()
    right = solutions(ROOT / "docs" / "en" / "notebooks" / "07-decoder.ipynb")["next_token_pairs"]
    for answer, expected in (
        ("def next_token_pairs(tokens, bos=None):\n    return list(tokens), list(tokens)\n", "✗ next_token_pairs"),
        (right, "✓ next_token_pairs: passed"),
    ):
        editor.fill(answer)
        editor.press("Control+Enter")
        page.wait_for_function(STATUS, arg=[stub.element_handle(), done], timeout=60_000)
        grade.get_by_role("button", name=text["rerun"], exact=True).click()
        page.wait_for_function(STATUS, arg=[grade.element_handle(), done], timeout=60_000)
        assert grade.locator(".primer-runner-out pre").text_content().startswith(expected)
    assert progress.text_content() == text["progress"].format(passed=1, total=3)
    assert axe_problems(page) == []
    page.reload(wait_until="load")
    assert progress.text_content() == text["progress"].format(passed=1, total=3)
    assert grade.get_by_role("status").text_content() == text["passed_before"]
    page.goto(sub_path_url + "en/07-decoder/", wait_until="load")  # the chapter's notebook box counts it too
    assert page.locator(".primer-progress [role=status]").text_content() == text["progress"].format(passed=1, total=3)
    page.goto(url, wait_until="load")
    page.get_by_role("button", name=text["progress_clear"], exact=True).click()
    assert progress.text_content() == text["progress"].format(passed=0, total=3)
    assert grade.get_by_role("status").text_content() == ""
    page.reload(wait_until="load")
    assert progress.text_content() == text["progress"].format(passed=0, total=3)
    assert foreign == []
    print(f"first Run of a check (the cells above it included): {first_run:.1f} s; six-mask cell: {six_status}")
    page.context.close()


@pytest.mark.browser
def test_find_the_bug_cells_run_in_the_page_with_stop_reset_and_no_network(site, browser, sub_path_url):
    """zh, chapter 14: Stop ends the page's Python, Reset brings back a cell's code, the next Run runs the cells above
    afresh, and a cell cannot reach the network."""
    page, _, foreign = open_offline(browser, sub_path_url + "notebooks/14-mask-bugs/")
    text = json.loads(page.locator(".primer-runner-mark").first.get_attribute("data-runner-labels"))
    done = text["done"].split("{")[0]
    loop = cell_bar(page, "fix_transposed-stub")
    loop.get_by_role("button", name=text["edit"], exact=True).click()
    editor = page.get_by_role("textbox", name=text["editor"])
    editor.wait_for()
    editor.fill("while True:\n    pass\n")
    loop.get_by_role("button", name=text["run"], exact=True).click()  # the cells above it run first
    page.wait_for_function(STATUS, arg=[loop.element_handle(), text["running"]], timeout=180_000)
    assert cell_bar(page, "fix_masked_bias-grade").get_by_role("status").text_content().startswith(done)
    loop.get_by_role("button", name=text["stop"], exact=True).click()
    assert loop.get_by_role("status").text_content() == text["stopped"]
    loop.get_by_role("button", name=text["reset"], exact=True).click()
    last = cell_bar(page, "fix_window-grade")
    last.get_by_role("button", name=text["run"], exact=True).click()  # a fresh Python: every cell above runs again
    page.wait_for_function(STATUS, arg=[last.element_handle(), done], timeout=180_000)
    assert "还没写好" in last.locator(".primer-runner-out pre").text_content()
    assert loop.get_by_role("status").text_content().startswith(done)
    net = cell_bar(page, "fix_window-stub")
    net.get_by_role("button", name=text["edit"], exact=True).click()
    editor = page.get_by_role("textbox", name=text["editor"])
    editor.fill("import js\njs.fetch('http://example.com/')\n")
    net.get_by_role("button", name=text["rerun"], exact=True).click()
    page.wait_for_function("b => b.querySelector('.primer-runner-out.error')", arg=net.element_handle())
    assert text["no_network"].replace("{name}", "fetch") in net.locator(".primer-runner-out pre").text_content()
    assert axe_problems(page) == []
    assert foreign == []
    page.context.close()

"""The in-page runner (hooks/runner.py, docs/assets/runner/): which blocks it marks, primer's zip, and the same
printed output as the build's, under Node (the vendored Pyodide, the site's worker.js) and in an offline chromium."""

import html as htmllib
import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from types import SimpleNamespace

import pytest
from browser_util import axe_problems
from hook_loader import load_hook
from runner_pages import open_offline, page_blocks, run_under_node, same_print
from site_reader import LANGS, ROOT, html_path

runner = load_hook("runner")

CHAPTERS = sorted(p.name for p in (ROOT / "docs" / "zh").glob("[0-9][0-9]-*.md"))


# ---- unit: the hook's parts ----


def test_a_runnable_fence_is_a_dozen_lines_block_and_never_a_twin_or_a_figure():
    md = (
        '```python exec="1" id="core-numpy" source="above" result="text"\n--8<-- "05-mask/core_numpy.py"\n```\n'
        '    ```python exec="1" id="core-sampling"\n    --8<-- "12-sampling-pipeline/core_sampling.py"\n    ```\n'
        '```python exec="1" html="1" id="fill-rule"\n--8<-- "05-mask/fill_rule.py"\n```\n'
        '```python\n--8<-- "05-mask/core_numpy_torch.py"\n```\n'
        '```python exec="1" id="playground" source="above" result="text"\n--8<-- "07-decoder/playground.py"\n```\n'
        '```python exec="1" html="1" id="playground-figure"\n--8<-- "07-decoder/playground_figure.py"\n```\n'
    )
    assert runner.runnable_snippets(md) == [
        "05-mask/core_numpy.py",
        "12-sampling-pipeline/core_sampling.py",
        "07-decoder/playground.py",
    ]


def runnable_count(name):
    """Return how many runnable blocks a chapter has: its dozen lines, and its playground if it has one."""
    return 1 + any(s.startswith(Path(name).stem + "/") for s in runner.PLAYGROUNDS)


def test_every_chapter_has_its_dozen_lines_runnable_and_chapter_7_its_playground_in_each_language():
    assert {k: v["figure"] for k, v in runner.PLAYGROUNDS.items()} == {"07-decoder/playground.py": "fig-playground"}
    for name in CHAPTERS:
        for lang in LANGS:
            text = (ROOT / "docs" / lang / name).read_text(encoding="utf-8")
            assert len(runner.runnable_snippets(text)) == runnable_count(name), f"{lang}/{name}"


def test_a_playground_whose_figure_is_missing_fails_the_build(monkeypatch):
    page = SimpleNamespace(meta={"runnable": ["07-decoder/playground.py"]}, file=SimpleNamespace(src_uri="en/07.md"))
    code = (ROOT / "docs" / "snippets" / "07-decoder" / "playground.py").read_text(encoding="utf-8")
    block = '<div class="highlight"><pre><span></span><code>{}</code></pre></div>\n'
    html = block.format(htmllib.escape(code)) + block.format("floor 0.77")
    monkeypatch.setitem(runner.STATE, "zip", b"")
    config = SimpleNamespace(theme={"language": "en"})
    with pytest.raises(ValueError, match="fig-playground"):
        runner.on_page_content(html, page, config, None)
    marked = runner.on_page_content(html + '<div id="fig-playground"></div>', page, config, None)
    assert 'data-playground="fig-playground"' in marked


def test_primer_zip_holds_what_the_runnable_blocks_import_and_the_worker_side_and_is_deterministic(tmp_path):
    first, second = runner.primer_zip(), runner.primer_zip()
    assert first == second
    path = tmp_path / "primer.zip"
    path.write_bytes(first)
    names = set(zipfile.ZipFile(path).namelist())
    wanted = {"primer/__init__.py", "primer/masks.py", "primer/training.py", "primer/labels/en.json"}
    assert wanted | {"runner_worker.py"} <= names
    assert not [n for n in names if n.startswith("primer/figures/")]
    assert not [n for n in names if n.startswith("primer/pretrained/")]  # the real model stays out of the runner
    for name in names:  # nothing that needs plotly or torch to import
        if name.endswith(".py"):
            source = zipfile.ZipFile(path).read(name).decode()
            assert not re.search(r"^(?:import|from) (?:plotly|torch|matplotlib)\b", source, re.M), name
    # the import closure decides: a block importing primer.kv_cache brings it, numpy alone does not
    with_cache = set(
        zipfile.ZipFile(io.BytesIO(runner.primer_zip(sources=["from primer.kv_cache import x"]))).namelist()
    )
    bare = set(zipfile.ZipFile(io.BytesIO(runner.primer_zip(sources=["import numpy"]))).namelist())
    assert "primer/kv_cache.py" in with_cache and "primer/kv_cache.py" not in bare and "runner_worker.py" in bare


def test_the_playground_point_pattern_reads_the_programs_printed_lines_and_nothing_else():
    spec = runner.PLAYGROUNDS["07-decoder/playground.py"]
    point, mask = re.compile(spec["point"]), re.compile(spec["mask"], re.M)
    assert point.match(f"{20:4d}  {0.51:.2f}  {0.6:.2f}").groups() == ("20", "0.51", "0.60")
    assert not point.match("floor 0.77, chance 2.48") and not point.match("step  train  held-out")
    code = (ROOT / "docs" / "snippets" / "07-decoder" / "playground.py").read_text(encoding="utf-8")
    assert mask.search(code).group(1) == "causal"
    assert mask.search("mask = full_mask(n)  # mine\n").group(1) == "full_mask(n)"


# ---- site: what the build marked ----


@pytest.mark.site
def test_every_chapter_page_marks_its_block_and_loads_only_the_small_script(site):
    for lang in LANGS:
        for name in CHAPTERS:
            page = html_path(site, lang, name).read_text(encoding="utf-8")
            assert len(page_blocks(site, lang, name)) == runnable_count(name), f"{lang}/{name}"
            assert page.count("assets/runner/runner.js") == 1
            assert not re.search(r'(?:src|href)="[^"]*(?:pyodide|worker\.js|primer\.zip)', page), f"{lang}/{name}"
        home = html_path(site, lang, "index.md").read_text(encoding="utf-8")
        assert "runner.js" not in home
    labels = json.loads(
        htmllib.unescape(
            re.search(r'data-runner-labels="([^"]+)"', (site / "en/05-mask/index.html").read_text()).group(1)
        )
    )
    assert set(labels) == set(runner.KEYS) and "MB" in labels["loading"] and "{seconds}" in labels["timeout"]
    assert (site / runner.ZIP_PATH).read_bytes() == runner.primer_zip()


@pytest.mark.site
def test_every_runnable_block_prints_under_pyodide_what_the_build_printed(site, tmp_path):
    blocks = {(lang, b[0]): b for lang in LANGS for name in CHAPTERS for b in page_blocks(site, lang, name)}
    codes = {code for _, code, _ in blocks.values()}
    assert len(codes) == len(CHAPTERS) + len(runner.PLAYGROUNDS)  # zh and en run the same code
    keys = {code: f"b{i}" for i, code in enumerate(sorted(codes))}
    extra = {
        "import": "import primer\nfrom primer.masks import causal_mask\n"
        "print(int(causal_mask(4).sum()), primer.__name__)",
        "error": "print('before')\nimport numpy as np\nnp.zeros(2) @ np.zeros(3)\n",
    }
    to_run = [{"key": k, "code": c} for k, c in {**{k: c for c, k in keys.items()}, **extra}.items()]
    report = run_under_node(site, to_run, tmp_path)["results"]
    for (lang, name), (snippet, code, printed) in blocks.items():
        result = report[keys[code]]
        assert result["error"] == "", f"{snippet}: {result['error']}"
        assert same_print(printed, result["output"]) is None, f"{lang}/{name}: {same_print(printed, result['output'])}"
    assert report["import"] == {"output": "10 primer\n", "error": "", "seconds": report["import"]["seconds"]}
    assert report["error"]["output"] == "before\n"
    error = report["error"]["error"].splitlines()
    assert error[0] == "Traceback (most recent call last):" and error[-1].startswith("ValueError: matmul")
    assert '"<block>", line 3' in report["error"]["error"]


def test_the_comparison_allows_one_unit_in_the_last_digit_and_nothing_else():
    assert same_print("p = 0.125 [1.33e-24]\n", "p = 0.126 [1.34e-24]") is None
    assert same_print("p = 0.125", "p = 0.127") == "0.125 != 0.127"
    assert same_print("p = 0.125", "q = 0.125") is not None
    assert same_print("3 rows", "4 rows") is not None


# ---- browser: a reader presses Run, offline, under the deployed sub-path ----

OUTPUT_SHOWN = (
    "b => { const o = b.querySelector('.primer-runner-out'); return o && !o.hidden && o.textContent.length; }"
)


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_run_in_the_page_prints_what_the_build_printed_offline(site, browser, sub_path_url, lang):
    name = "05-mask.md"
    path = html_path(site, lang, name).relative_to(site).parent.as_posix() + "/"
    limit = 4 if lang == "en" else None  # en also waits for a run to reach the time limit
    page, requests, foreign = open_offline(browser, sub_path_url + path, time_limit=limit)
    ((_, _, printed),) = page_blocks(site, lang, name)
    assert not [u for u in requests if "pyodide" in u or "/runner/worker" in u or "primer.zip" in u]
    block = page.locator(".primer-runner").first
    text = json.loads(page.locator(".primer-runner-mark").first.get_attribute("data-runner-labels"))
    block.get_by_role("button", name=text["run"], exact=True).click()
    page.wait_for_function(OUTPUT_SHOWN, arg=block.element_handle(), timeout=180_000)
    got = block.locator(".primer-runner-out pre").text_content()
    assert same_print(printed, got) is None
    assert any(u.endswith("pyodide.asm.wasm") for u in requests) and any(u.endswith("primer.zip") for u in requests)
    if lang == "en":  # edit to an error, then a loop stopped by Stop, again stopped by the time limit, then Reset
        block.get_by_role("button", name=text["edit"], exact=True).click()
        editor = page.get_by_role("textbox", name=text["editor"])
        editor.wait_for()
        assert page.locator(".cm-editor").count() == 1  # CodeMirror, fetched on this first Edit
        editor.fill("print(1)\nraise ValueError('mask: bad')\n")
        editor.press("Control+Enter")
        page.wait_for_function("b => b.querySelector('.primer-runner-out.error')", arg=block.element_handle())
        assert block.locator(".primer-runner-out pre").text_content().endswith("ValueError: mask: bad")
        editor.fill("while True:\n    pass\n")
        block.get_by_role("button", name=text["rerun"], exact=True).click()
        page.wait_for_function(
            "([b, t]) => b.querySelector('[role=status]').textContent === t",
            arg=[block.element_handle(), text["running"]],
        )
        block.get_by_role("button", name=text["stop"], exact=True).click()
        assert block.get_by_role("status").text_content() == text["stopped"]
        block.get_by_role("button", name=text["rerun"], exact=True).click()  # a fresh worker: Stop ended the last
        page.wait_for_function(
            "([b, t]) => b.querySelector('[role=status]').textContent === t",
            arg=[block.element_handle(), text["timeout"].replace("{seconds}", str(limit))],
            timeout=180_000,
        )
        assert axe_problems(page) == []
        block.get_by_role("button", name=text["reset"], exact=True).click()
        assert page.locator(".primer-runner-src").first.is_visible() and editor.count() == 0
    else:
        assert axe_problems(page) == []
    assert foreign == []
    page.context.close()


@pytest.mark.browser
@pytest.mark.parametrize("missing", ["WebAssembly", "Worker"])
def test_without_webassembly_or_workers_the_button_says_so_and_the_builds_output_stays(
    site, browser, base_url, missing
):
    page, requests, foreign = open_offline(browser, base_url + "en/05-mask/", f"window.{missing} = undefined;")
    text = json.loads(page.locator(".primer-runner-mark").first.get_attribute("data-runner-labels"))
    bar = page.locator(".primer-runner").first
    assert bar.get_by_role("button", name=text["run"], exact=True).is_disabled()
    assert bar.get_by_role("status").text_content() == text["unsupported"]
    assert page.locator(".primer-runner-static").first.is_visible()
    page.emulate_media(media="print")
    assert not bar.is_visible() and page.locator(".primer-runner-static").first.is_visible()
    assert foreign == [] and not [u for u in requests if "pyodide" in u or "worker.js" in u]
    page.context.close()


READER_POINTS = (
    "id => { const gd = document.getElementById(id); return ['reader-train', 'reader-heldout']"
    ".map(u => { const t = gd.data.find(t => t.uid === u); return [t.x, t.y]; }); }"
)


@pytest.mark.browser
@pytest.mark.parametrize("lang", LANGS)
def test_playground_trains_in_the_page_and_draws_the_readers_losses_offline(site, browser, sub_path_url, lang):
    """A short run (60 steps): zh as written, en under the full mask; the printed lines equal numpy's here, and the
    figure holds them as the reader's points."""
    name = "07-decoder.md"
    page, _, foreign = open_offline(
        browser, sub_path_url + html_path(site, lang, name).relative_to(site).parent.as_posix() + "/"
    )
    (code,) = [c for s, c, _ in page_blocks(site, lang, name) if s in runner.PLAYGROUNDS]
    short = code.replace('training["steps"]', "60", 1)
    if lang == "en":
        short = short.replace("mask = causal  #", "mask = full_mask(n)  #", 1)
    assert short.count("60") > code.count("60") and (lang == "zh" or "mask = full_mask(n)" in short)
    mark = page.locator(".primer-runner-mark[data-playground]")
    text, figure = json.loads(mark.get_attribute("data-runner-labels")), mark.get_attribute("data-playground")
    bar = page.locator(".primer-runner").first  # the playground comes before the dozen lines
    assert bar.get_by_role("button", name=text["train"], exact=True).is_visible()
    bar.get_by_role("button", name=text["edit"], exact=True).click()
    editor = page.get_by_role("textbox", name=text["editor"])
    editor.wait_for()
    editor.fill(short)
    bar.get_by_role("button", name=text["train"], exact=True).click()
    page.wait_for_function(  # the output streams: read it once the run is done
        "([b, p]) => b.querySelector('[role=status]').textContent.startsWith(p)",
        arg=[bar.element_handle(), text["done"].split("{")[0]],
        timeout=180_000,
    )
    got = bar.locator(".primer-runner-out pre").text_content()
    here = subprocess.run([sys.executable, "-c", short], capture_output=True, text=True, timeout=300, check=True).stdout
    assert same_print(here, got) is None, same_print(here, got)
    rows = [line.split() for line in got.strip().splitlines()[2:]]
    (train_x, train_y), (held_x, held_y) = page.evaluate(READER_POINTS, figure)
    assert train_x == held_x == [20, 40, 60] == [int(r[0]) for r in rows]
    assert train_y == [float(r[1]) for r in rows] and held_y == [float(r[2]) for r in rows]
    assert bar.get_by_role("button", name=text["retrain"], exact=True).is_visible()
    assert axe_problems(page) == []
    bar.get_by_role("button", name=text["reset"], exact=True).click()
    assert page.evaluate(READER_POINTS, figure) == [[[], []], [[], []]]
    assert foreign == []
    page.context.close()

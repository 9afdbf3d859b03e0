"""MkDocs hook: the in-page runner ("Run it here"). Marks the runnable blocks, gives them their labels, packs primer.

A block is runnable when it is an exec block of a chapter's "A dozen lines of numpy" section: its snippet is
NN-slug/core_*.py or NN-slug/*_numpy.py (never a *_torch.py twin, which the build does not run); or a playground,
NN-slug/playground.py, a training program whose printed losses runner.js also draws, live, into a figure of the page.
All runner.js knows of a playground is what its mark's data attributes say, written here from the one constant beside
the figure that defines its traces (PLAYGROUNDS). The page's runner script (docs/assets/runner/runner.js, loaded by
overrides/main.html on marked pages only) adds the controls; nothing of the runtime loads until the reader presses Run.
A notebook page (docs/<lang>/notebooks/*.ipynb, rendered by mkdocs-jupyter) gets the same controls under each code
cell its Python can run (primer_site.notebook_cells): the cells share one namespace (data-session), and a check cell's
mark names its exercise and the pattern of its "passed" line, so runner.js can remember a pass in the browser.
primer.zip holds the primer modules the runnable blocks and the notebooks' code cells import (their import closure)
and primer_site/runner_worker.py, the Python side of the worker.
"""

import html
import io
import json
import re
import zipfile
from pathlib import Path

from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

import primer_site
from primer.figures.decoder import PLAYGROUND
from primer.language import labels
from primer_site.fences import exec_fences
from primer_site.notebook_cells import notebook_code, page_cells, progress_line
from primer_site.primer_sources import SourceGraph
from primer_site.site_lang import build_language

ROOT = Path(__file__).resolve().parents[1]
PRIMER = ROOT / "primer"
SNIPPETS = ROOT / "docs" / "snippets"
NOTEBOOKS = ROOT / "docs" / "en" / "notebooks"  # zh's code cells are the same but for the language line
HARNESS = Path(primer_site.__file__).with_name("runner_worker.py")  # packed at the zip's top, imported by worker.js
VENDOR = ROOT / "docs" / "assets" / "vendor" / "pyodide"
ZIP_PATH = "assets/runner/primer.zip"  # under site_dir; the worker fetches it next to itself
# The snippet of a runnable exec fence (primer_site.fences reads the fences): 05-mask/core_numpy.py
RUNNABLE = re.compile(r"[\w-]+/(?:core_\w+|\w+_numpy|playground)\.py")
RUNNABLE_FILES = ("*/core_*.py", "*/*_numpy.py", "*/playground.py")  # the snippet names RUNNABLE accepts
# A runnable block is its source, then (markdown-exec, source="above" result="text") the text it printed.
CODE_DIV = re.compile(r'<div class="highlight"><pre><span></span><code>(.*?)</code></pre></div>', re.S)
# A notebook's code cell, as mkdocs-jupyter writes it (found with str.find, in order): the cell's id attribute, then
# its highlighted source, which ends at the first "</pre></div>" after it.
NOTEBOOK_CELL = ('id="cell-id={}"', '<div class="highlight-ipynb', "</pre></div>")
KEYS = (  # every key of the "runner" label section, read here (tests/test_figures_labels.py)
    "run",
    "rerun",
    "stop",
    "reset",
    "edit",
    "editor",
    "output",
    "loading",
    "running",
    "done",
    "failed",
    "stopped",
    "timeout",
    "error",
    "unsupported",
    "toolbar",
    "train",
    "retrain",
    "waiting",
    "load_failed",
    "load_timeout",
    "cut",
    "no_input",
    "no_network",
    "clear_runs",
    "run_label",
    "passed_before",
    "skipped",
    "progress",
    "progress_clear",
)

# A playground snippet -> what its figure is (primer/figures/decoder.py): the div id, the reader's trace uids, the
# printed line that is one point, the program line naming the mask, the values drawn.
PLAYGROUNDS = {"07-decoder/playground.py": PLAYGROUND}
TIME_LIMIT_S = 30  # a run longer than this is stopped (the worker is terminated)
LOAD_LIMIT_S = 90  # loading the runtime longer than this fails (a file that never arrives, a wasm that never compiles)


def runnable_snippets(markdown):
    """Return the snippet paths of a page's runnable exec blocks, in order."""
    return [f.snippet for f in exec_fences(markdown) if f.snippet and RUNNABLE.fullmatch(f.snippet)]


def runnable_sources(snippets=SNIPPETS):
    """Return the source of every snippet a page can mark runnable."""
    paths = {p for pattern in RUNNABLE_FILES for p in snippets.glob(pattern) if not p.name.endswith("_torch.py")}
    return [p.read_text(encoding="utf-8") for p in sorted(paths)]


def notebook_sources(notebooks=NOTEBOOKS):
    """Return the source of every notebook code cell, those Jupyter alone runs included (a reader's zip serves both)."""
    return [source for path in sorted(notebooks.glob("*.ipynb")) for _, source, _ in notebook_code(path)]


def packed_files(root=PRIMER, sources=None):
    """Return primer's files the runnable blocks and notebooks need: the modules they import, directly or not; data."""
    graph = SourceGraph(root)
    sources = [*runnable_sources(), *notebook_sources()] if sources is None else sources
    modules = set().union(*(graph.closure(code) for code in sources))
    out = []
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        parts = path.relative_to(root.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        if (path.suffix == ".py" and name in modules) or path.suffix == ".json":
            out.append(path)
    return out


def primer_zip(root=PRIMER, sources=None):
    """Return the runnable blocks' part of primer (primer/...) and runner_worker.py as a zip, byte-identical for
    identical sources."""
    files = [("primer/" + p.relative_to(root).as_posix(), p) for p in packed_files(root, sources)]
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, path in [*files, (HARNESS.name, HARNESS)]:
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, path.read_bytes())
    return buf.getvalue()


def load_size(zip_bytes):
    """Return what the first Run fetches, in MB: the vendored runtime and numpy, and primer's zip."""
    vendored = sum(p.stat().st_size for p in VENDOR.iterdir() if not p.name.startswith(("LICENSE", "SHA256")))
    return (vendored + len(zip_bytes)) / 1e6


STATE = {}


def on_pre_build(config):
    """Pack primer once a build: its size goes into every page's loading line."""
    STATE["zip"] = primer_zip()


def on_page_markdown(markdown, page, config, files):
    """Note the page's runnable snippets."""
    page.meta["runnable"] = runnable_snippets(markdown)
    return markdown


def playground_attributes(page, snippet, html_text):
    """Return the data attributes that tell runner.js a playground's figure, traces and printed points ("" if none)."""
    spec = PLAYGROUNDS.get(snippet)
    if spec is None:
        return ""
    if f'id="{spec["figure"]}"' not in html_text:
        raise ValueError(f"{page.file.src_uri}: the playground {snippet} draws into #{spec['figure']}, not on the page")
    attrs = {
        "playground": spec["figure"],
        "traces": json.dumps([spec["traces"]["train"], spec["traces"]["heldout"]]),
        "point": spec["point"],
        "mask": spec["mask"],
        "bounds": json.dumps(spec["bounds"], sort_keys=True),
    }
    return "".join(f' data-{key}="{html.escape(value, quote=True)}"' for key, value in attrs.items())


def runner_labels(config):
    """Return the page language's runner labels as an escaped JSON attribute value."""
    text = labels("runner", build_language(config))
    words = {key: text[key] for key in KEYS}
    words["loading"] = words["loading"].format(size=f"{load_size(STATE['zip']):.1f}")
    return html.escape(json.dumps(words, ensure_ascii=False, sort_keys=True), quote=True)


def passed_pattern(name, lang):
    """Return a regex matching the line grade() prints when exercise name passed, in the page's language."""
    line = labels("exercises", lang)["passed"]
    head, tail = line.split("{n}")
    return "^" + re.escape(head.format(name=name)) + r"\d+" + re.escape(tail) + "$"


def mark_cells(content, cells, attributes):  # -> (content with a mark after each cell's source, cells marked)
    """Put a hidden mark after the highlighted source of each notebook cell; attributes(cell) gives its data."""
    key, source, end = NOTEBOOK_CELL
    parts, pos, marked = [], 0, 0
    for cell in cells:
        at = content.find(key.format(cell.id), pos)
        start = content.find(source, at) if at >= 0 else -1
        stop = content.find(end, start) if start >= 0 else -1
        if stop < 0:
            continue
        stop += len(end)
        parts += [content[pos:stop], f'\n<div class="primer-runner-mark" hidden{attributes(cell)}></div>']
        pos, marked = stop, marked + 1
    return "".join(parts) + content[pos:], marked


def notebook_page(html_text, page, config):
    """Mark the code cells a notebook page runs, one session a page; put its progress line on top."""
    lang, path = build_language(config), Path(page.file.abs_src_path)
    cells, chapter, data = page_cells(path), path.stem, runner_labels(config)

    def attributes(cell):
        extra = ""
        if cell.exercise:
            pattern = html.escape(passed_pattern(cell.exercise, lang), quote=True)
            extra = f' data-exercise="{cell.exercise}" data-passed="{pattern}"'
        return (
            f' data-runnable="{cell.id}" data-session="{chapter}" data-time-limit="{TIME_LIMIT_S}"'
            f' data-load-limit="{LOAD_LIMIT_S}"{extra} data-runner-labels="{data}"'
        )

    html_text, marked = mark_cells(html_text, cells, attributes)
    if marked != len(cells):
        raise ValueError(f"{page.file.src_uri}: {len(cells)} code cells run in the page, {marked} found in the HTML")
    names = [c.exercise for c in cells if c.exercise]
    page.meta["has_runner"] = True
    return (progress_line(chapter, names, lang) if names else "") + html_text


def on_page_content(html_text, page, config, files):
    """Mark each runnable block after what it printed, or each code cell a notebook page runs; flag the page."""
    if page.file.src_uri.endswith(".ipynb"):
        return notebook_page(html_text, page, config)
    snippets = page.meta.get("runnable") or []
    if not snippets:
        return html_text
    data = runner_labels(config)
    sources = {}
    for snippet in snippets:
        code = (ROOT / "docs" / "snippets" / snippet).read_text(encoding="utf-8").strip()
        sources[code] = snippet
    divs, marked, parts, pos = list(CODE_DIV.finditer(html_text)), 0, [], 0
    for div, after in zip(divs, divs[1:]):
        snippet = sources.get(html.unescape(re.sub(r"<[^>]+>", "", div.group(1))).strip())
        if snippet is None or html_text[div.end() : after.start()].strip():
            continue  # not runnable, or not followed by what it printed
        # A hidden mark after the two blocks, which stay untouched (hooks/search_prose.py sets them aside by their
        # exact markup); runner.js finds the source and the output as the mark's previous siblings.
        mark = (
            f'\n<div class="primer-runner-mark" hidden data-runnable="{snippet}" data-time-limit="{TIME_LIMIT_S}"'
            f' data-load-limit="{LOAD_LIMIT_S}"{playground_attributes(page, snippet, html_text)}'
            f' data-runner-labels="{data}"></div>'
        )
        parts += [html_text[pos : after.end()], mark]
        pos, marked = after.end(), marked + 1
    html_text = "".join(parts) + html_text[pos:]
    if marked != len(snippets):
        raise ValueError(f"{page.file.src_uri}: {len(snippets)} runnable blocks, {marked} found in the HTML")
    page.meta["has_runner"] = True
    return html_text


@event_priority(
    -160
)  # after i18n's on_files (-100) and the notebooks' (-150), before htmlproofer sees the files (-200)
def on_files(files, config):
    """Add primer.zip to the site's files (MkDocs' File.generated), for the worker and the notebook pages' link."""
    if files.get_file_from_path(ZIP_PATH) is None:
        files.append(File.generated(config, ZIP_PATH, content=STATE.get("zip") or primer_zip()))
    return files

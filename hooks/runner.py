"""MkDocs hook: the in-page runner ("Run it here"). Marks the runnable blocks, gives them their labels, packs primer.

A block is runnable when it is an exec block of a chapter's "A dozen lines of numpy" section: its snippet is
NN-slug/core_*.py or NN-slug/*_numpy.py (never a *_torch.py twin, which the build does not run); or a playground,
NN-slug/playground.py, a training program whose printed losses runner.js also draws, live, into a figure of the page
(PLAYGROUNDS names it). The page's
runner script (docs/assets/runner/runner.js, loaded by overrides/main.html on marked pages only) adds the controls;
nothing of the runtime loads until the reader presses Run.
"""

import ast
import html
import io
import json
import re
import sys
import zipfile
from pathlib import Path

from primer.language import labels
from primer_site.fences import exec_fences
from primer_site.site_lang import build_language

ROOT = Path(__file__).resolve().parents[1]
PRIMER = ROOT / "primer"
VENDOR = ROOT / "docs" / "assets" / "vendor" / "pyodide"
ZIP_PATH = "assets/runner/primer.zip"  # under site_dir; the worker fetches it next to itself
# The snippet of a runnable exec fence (primer_site.fences reads the fences): 05-mask/core_numpy.py
RUNNABLE = re.compile(r"[\w-]+/(?:core_\w+|\w+_numpy|playground)\.py")
# A runnable block is its source, then (markdown-exec, source="above" result="text") the text it printed.
CODE_DIV = re.compile(r'<div class="highlight"><pre><span></span><code>(.*?)</code></pre></div>', re.S)
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
    "stopped",
    "timeout",
    "error",
    "unsupported",
    "toolbar",
    "train",
    "retrain",
)
# A playground's figure, by the div id its figure block gives (docs/snippets/07-decoder/playground_figure.py): the
# reader's run fills its traces with uid "reader-train" and "reader-heldout" (primer/figures/decoder.py, playground).
PLAYGROUNDS = {"07-decoder/playground.py": "fig-playground"}
TIME_LIMIT_S = 30  # a run longer than this is stopped (the worker is terminated)
PACKED = {"numpy", "primer"}  # a packed module imports only these and the standard library at module level


def runnable_snippets(markdown):
    """Return the snippet paths of a page's runnable exec blocks, in order."""
    return [f.snippet for f in exec_fences(markdown) if f.snippet and RUNNABLE.fullmatch(f.snippet)]


def core_modules(root=PRIMER):
    """Return the files of primer that run without plotly: the math, the experiments, the inputs, the label tables."""
    out = []
    parts = ("*.py", "experiments/*.py", "inputs/*.py", "labels/*.json")
    for path in sorted(path for part in parts for path in root.glob(part)):
        if path.suffix == ".py":
            tree = ast.parse(path.read_text(encoding="utf-8"))
            tops = {
                (alias.name if isinstance(node, ast.Import) else node.module or "").split(".")[0]
                for node in tree.body
                if isinstance(node, (ast.Import, ast.ImportFrom))
                for alias in node.names
            }
            if tops - PACKED - set(sys.stdlib_module_names) - {""}:
                continue  # e.g. a module that needs torch or plotly to import
        out.append(path)
    return out


def primer_zip(root=PRIMER):
    """Return primer's core as a zip (primer/...), byte-identical for identical sources."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for path in core_modules(root):
            info = zipfile.ZipInfo("primer/" + path.relative_to(root).as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
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


def on_page_content(html_text, page, config, files):
    """Mark each runnable block (snippet, time limit, the runner's labels) after what it printed; flag the page."""
    snippets = page.meta.get("runnable") or []
    if not snippets:
        return html_text
    text = labels("runner", build_language(config))
    words = {key: text[key] for key in KEYS}
    words["loading"] = words["loading"].format(size=f"{load_size(STATE['zip']):.1f}")
    data = html.escape(json.dumps(words, ensure_ascii=False, sort_keys=True), quote=True)
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
        figure = PLAYGROUNDS.get(snippet)
        if figure and f'id="{figure}"' not in html_text:
            raise ValueError(f"{page.file.src_uri}: the playground {snippet} draws into #{figure}, not on the page")
        playground = f' data-playground="{figure}"' if figure else ""
        mark = (
            f'\n<div class="primer-runner-mark" hidden data-runnable="{snippet}" data-time-limit="{TIME_LIMIT_S}"'
            f'{playground} data-runner-labels="{data}"></div>'
        )
        parts += [html_text[pos : after.end()], mark]
        pos, marked = after.end(), marked + 1
    html_text = "".join(parts) + html_text[pos:]
    if marked != len(snippets):
        raise ValueError(f"{page.file.src_uri}: {len(snippets)} runnable blocks, {marked} found in the HTML")
    page.meta["has_runner"] = True
    return html_text


def on_post_build(config):
    """Write primer's core as assets/runner/primer.zip, for the worker to unpack."""
    out = Path(config["site_dir"]) / ZIP_PATH
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(STATE.get("zip") or primer_zip())

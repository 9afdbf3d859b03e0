"""MkDocs hook: each chapter's notebook (docs/<lang>/notebooks/<chapter>.ipynb) as a page of its language, with its .ipynb to download.

mkdocs-static-i18n rebuilds every file as a plain MkDocs File, which counts only Markdown as a page:
left alone, a notebook would be copied as raw JSON to its page URL and have no twin in the other
language. The File class i18n builds with is swapped for one that counts .ipynb as a page, so
mkdocs-jupyter renders it and i18n gives it its twin for the language switcher.

The notebooks run while the build renders the chapters: at pre-build, every notebook of both
languages without an executed copy in .cache/notebooks goes to two warm kernels in background
threads (reset between notebooks to a fresh kernel's state), and each executed copy goes on to
hooks/notebook_html.py, a process that renders it into mkdocs-jupyter's own cache; a notebook page
waits for its notebook only when the build reaches it. A notebook's key covers its text, the primer
modules its code imports (hooks/primer_sources.py) and the versions that run it.
"""

import hashlib
import html
import json
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import Future
from pathlib import Path, PurePosixPath

import mkdocs_static_i18n.folder as i18n_folder
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url
from primer_sources import SourceGraph, primer_dir
from primer_sources import versions as primer_versions

WORDS = {
    "zh": {"title": "本章笔记本", "read": "在网页上看本章的 Jupyter 笔记本", "download": "下载笔记本（.ipynb）",
           "body": "代码、matplotlib 图和能自己检查对错的练习，只需要 numpy、matplotlib 和 primer。",
           "solution": "答案"},
    "en": {"title": "This chapter's notebook", "read": "Read this chapter's Jupyter notebook", "download": "Download the notebook (.ipynb)",
           "body": "The code, matplotlib plots and exercises that check themselves; it needs only numpy, matplotlib and primer.",
           "solution": "Solution"},
}
SOLUTION = re.compile(r'<div[^>]*class="[^"]*\bcelltag_exercise-solution\b[^"]*"[^>]*>')
DIV = re.compile(r"<(/?)div\b[^>]*>")


class NotebookAwareFile(File):
    """A File that counts a .ipynb as a documentation page."""

    def is_documentation_page(self):
        return self.src_uri.endswith(".ipynb") or super().is_documentation_page()


i18n_folder.File = NotebookAwareFile   # i18n's create_i18n_file builds every file of docs/ with this name


def on_config(config):
    """Keep mkdocs-jupyter's HTML cache across the two language passes, and let it look at notebooks only.

    It caches each page's HTML under a key of the notebook's bytes; the notebook it renders is the
    executed copy (Job below), whose bytes change with its outputs, so the key is sound. But after
    each language's pass its on_post_build deletes every entry that pass did not use: the other
    language's. That one step is unregistered here. It also parses every Markdown page with jupytext,
    twice a build, to see whether it is a notebook in disguise (a fifth of a rebuild under `mkdocs
    serve`); this site's notebooks are .ipynb files only.
    """
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is not None:
        plugin._supported_extensions = [".ipynb"]
    events = config.plugins.events["post_build"]
    events[:] = [e for e in events if getattr(e, "__self__", None) is not plugin or plugin is None]
    return config


def _lang(file):
    return getattr(file, "locale", None) or "zh"


def _download_url(page_url):
    return page_url.rstrip("/") + ".ipynb"   # notebooks/05-mask/ -> notebooks/05-mask.ipynb


ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "notebooks"   # outside docs/ and site/; ignored by git
KERNELS = 2   # warm kernels; the build's own thread, the block worker and the renderer share the cores

# Run silently in a warm kernel before each notebook, so each one starts as in a fresh kernel: no
# variables, no figures, matplotlib's settings as the kernel started with them (the zh notebooks set a
# CJK font), primer imported afresh (a notebook sets its language in it), the repository as the working
# directory and the cell counter at 1. Modules stay imported: that is the time saved.
RESET = """
import os as _os, sys as _sys
import matplotlib as _mpl, matplotlib.pyplot as _plt
_plt.close("all")
if not hasattr(_sys, "_primer_rc"):
    _plt.figure(); _plt.close("all")       # let the inline backend set itself up first
    _sys._primer_rc = _mpl.rcParams.copy()
dict.update(_mpl.rcParams, _sys._primer_rc)   # as matplotlib's rc_context restores them
for _name in [m for m in _sys.modules if m == "primer" or m.startswith("primer.")]:
    del _sys.modules[_name]
_os.chdir({root!r})

def _reset(shell, gc):   # variables, In/Out and a new history session: the counter is back at 1
    collect, gc.collect = gc.collect, lambda *args: 0   # reset() runs a full collection (60 ms); the kernel's own gc runs
    try:
        shell.reset(new_session=True)
    finally:
        gc.collect = collect
_reset(get_ipython(), __import__("gc"))
"""


def _code(data):
    """Return the code cells of a notebook's bytes, joined (shell and magic lines left out: they are not Python)."""
    cells = json.loads(data)["cells"]
    lines = [line for cell in cells if cell["cell_type"] == "code"
             for line in "".join(cell["source"]).splitlines() if not line.lstrip().startswith(("%", "!"))]
    return "\n".join(lines)


def _key(data, graph, versions):
    """Return the cache key of a notebook: its bytes, the primer modules its code imports (and primer's data), versions."""
    return hashlib.sha256(data + graph.digest(_code(data)).encode() + versions.encode()).hexdigest()


class WarmKernel:
    """One ipykernel, started once and reset between notebooks (RESET above)."""

    def __init__(self):
        from jupyter_client import KernelManager

        self.sockets = tempfile.TemporaryDirectory()   # local sockets: no TCP port, no warning about one
        self.km = KernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(self.sockets.name, "kernel"))
        self.km.start_kernel(cwd=str(ROOT), stdout=subprocess.DEVNULL)   # a cell's output reaches the notebook, not the log
        self.kc = None   # the client nbclient connects for the first notebook, kept for the next ones

    def run(self, nb):
        from nbclient import NotebookClient
        from nbconvert.preprocessors import CoalesceStreamsPreprocessor

        client = NotebookClient(nb, km=self.km, timeout=600, allow_errors=False, record_timing=False,
                                resources={"metadata": {"path": str(ROOT)}})
        client.kc = self.kc
        with client.setup_kernel():   # the kernel is running: this connects a client to it, the first time only
            self.kc = client.kc       # ours to close: nbclient closes clients only of kernels it started
            reply = client.wait_for_reply(client.kc.execute(RESET.format(root=str(ROOT)), silent=True, store_history=False))
            if reply is None or reply["content"]["status"] != "ok":
                raise RuntimeError(f"could not reset the kernel: {reply and reply['content']}")
            client.execute()
        # ipykernel flushes stdout on a timer, so one print can arrive as two stream outputs or as one;
        # merged, a cell's output does not depend on that timing (nbconvert's own rule: consecutive runs only)
        merge = CoalesceStreamsPreprocessor()
        for index, cell in enumerate(nb.cells):
            merge.preprocess_cell(cell, {}, index)

    def close(self):
        if self.kc is not None:
            self.kc.stop_channels()
        self.km.shutdown_kernel(now=True)
        self.sockets.cleanup()


class Renderer:
    """hooks/notebook_html.py in a process of its own, started on first use: renders executed notebooks to HTML."""

    def __init__(self, options):
        self.options, self.proc, self.lock = options, None, threading.Lock()

    def render(self, src, out):
        with self.lock:   # one request at a time; the kernels' threads share it
            if self.proc is None:
                self.proc = subprocess.Popen([sys.executable, str(Path(__file__).with_name("notebook_html.py"))],
                                             stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT)
            self.proc.stdin.write(json.dumps({"src": str(src), "out": str(out), "options": self.options}) + "\n")
            self.proc.stdin.flush()
            reply = self.proc.stdout.readline().strip()
        if reply != "ok":
            raise RuntimeError(f"rendering {src} to HTML failed: " + (json.loads(reply[7:]) if reply.startswith("error: ") else
                                                                     "the renderer stopped"))

    def close(self):
        with self.lock:
            if self.proc is not None:
                self.proc.stdin.close()
                self.proc.wait()
                self.proc = None


class Job:
    """One notebook: its executed copy, and the HTML mkdocs-jupyter caches for it; a future done once both are there."""

    def __init__(self, src, key, html_path):
        self.src, self.out = Path(src), CACHE / f"{key}.ipynb"
        self.html_path = html_path   # executed copy -> mkdocs-jupyter's cache file of it (None: it caches nothing)
        self.done = Future()
        if self.out.exists() and self.html_ready():
            self.done.set_result(self.out)

    def html_ready(self):
        path = self.html_path(self.out)
        return path is None or path.exists()

    def run(self, kernel, renderer):
        import nbformat

        if not self.out.exists():
            nb = nbformat.read(self.src, as_version=4)
            kernel().run(nb)
            CACHE.mkdir(parents=True, exist_ok=True)
            tmp = self.out.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
            nbformat.write(nb, tmp)
            os.replace(tmp, self.out)   # atomic: a concurrent build sees the whole file or none
        if not self.html_ready():
            renderer.render(self.out, self.html_path(self.out))


def run_in_background(jobs, renderer):
    """Run the jobs on KERNELS warm kernels, in threads, while the build goes on; the last thread stops the renderer."""
    todo = queue.SimpleQueue()
    for job in jobs:
        todo.put(job)
    workers = min(KERNELS, len(jobs))
    left = [workers]
    lock = threading.Lock()

    def worker():
        kernel = [None]

        def warm():   # a kernel only for a notebook that has to run, not for one that only needs its HTML
            kernel[0] = kernel[0] or WarmKernel()
            return kernel[0]

        try:
            while True:
                try:
                    job = todo.get_nowait()
                except queue.Empty:
                    return
                try:
                    job.run(warm, renderer)
                    job.done.set_result(job.out)
                except BaseException as err:  # noqa: BLE001 - handed to the page that waits for it
                    job.done.set_exception(err)
                    if kernel[0] is not None:   # its state is unknown now: the next job gets a new kernel
                        kernel[0].close()
                        kernel[0] = None
        finally:
            if kernel[0] is not None:
                kernel[0].close()
            with lock:
                left[0] -= 1
                if left[0] == 0:
                    renderer.close()

    for _ in range(workers):
        threading.Thread(target=worker, daemon=True, name="primer-notebooks").start()


JOBS = {}   # notebook source path -> Job, for this build (both languages)
SITE = []   # the site's root directory


def _html_cache(config):
    """Return executed copy -> the file mkdocs-jupyter caches its HTML in (None if it caches nothing), and its options."""
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None or not plugin.config["cache"]:
        return (lambda path: None), {}
    from mkdocs_jupyter.plugin import _compute_cache_key, _get_cache_path   # private: pinned in requirements.lock

    options = dict(plugin.config)
    directory = Path(options["cache_dir"]).resolve()   # as mkdocs-jupyter resolves it: from the working directory
    return (lambda path: _get_cache_path(directory, _compute_cache_key(path, options, options["execute"]))), options


def on_pre_build(config):
    """Start, in the background, every notebook of both languages whose executed copy or HTML is not in the cache."""
    if JOBS:   # i18n's second language pass: started with the first
        return
    SITE[:] = [config.site_dir]   # the first pass builds the site's root; the other language goes in a folder of it
    graph = SourceGraph(primer_dir(ROOT / "primer"))
    versions = repr(sorted(primer_versions("numpy", "matplotlib", "nbclient", "ipykernel").items()))
    html_path, options = _html_cache(config)
    for src in sorted(Path(config.docs_dir).glob("*/notebooks/*.ipynb")):
        JOBS[str(src.resolve())] = Job(src, _key(src.read_bytes(), graph, versions), html_path)
    missing = [job for job in JOBS.values() if not job.done.done()]
    if missing:
        renderer = Renderer({k: v for k, v in options.items() if isinstance(v, (str, int, float, bool, dict, list, type(None)))})
        run_in_background(sorted(missing, key=lambda job: job.src.parts[-3] != "zh"), renderer)   # zh first: its pass comes first


@event_priority(-150)  # after i18n's on_files (-100); before primer_build's (-200), which hands the files to htmlproofer
def on_files(files, config):
    """Add, beside each notebook page, the .ipynb itself to download; render the page from its executed copy.

    The executed copy may still be running (on_pre_build started it); on_pre_page waits for it.
    """
    notebooks = [f for f in files if f.src_uri.endswith(".ipynb") and f.is_documentation_page()]
    for file in notebooks:
        src = PurePosixPath(file.src_uri)
        copy = File(str(src.with_suffix(".download.ipynb")), config.docs_dir, config.site_dir, False,
                    dest_uri=_download_url(file.url))
        copy.abs_src_path = file.abs_src_path   # readers download the notebook as written, without outputs
        files.append(copy)
        file.abs_src_path = str(JOBS[str(Path(file.abs_src_path).resolve())].out.resolve())
    return files


@event_priority(100)  # before mkdocs-jupyter's on_pre_page, which reads the executed copy
def on_pre_page(page, config, files):
    """Wait until the notebook of a notebook page has run; a failing cell fails the build here."""
    if page.file.src_uri.endswith(".ipynb"):
        job = next((j for j in JOBS.values() if str(j.out.resolve()) == page.file.abs_src_path), None)
        if job is not None:
            try:
                job.done.result()
            except Exception as err:
                raise PluginError(f"notebook {job.src} failed to run:\n{err}") from err
    return page


def on_post_build(config):
    """Write the notebooks' shared stylesheet at the site's root; forget this build's jobs once both languages are built."""
    for name, css in SHARED_CSS.items():
        path = Path(SITE[0]) / "assets" / "stylesheets" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(css, encoding="utf-8")
    i18n = config.plugins.get("i18n")
    if not getattr(i18n, "building", False):
        JOBS.clear()
        SHARED_CSS.clear()


def on_page_markdown(markdown_text, page, config, files):
    """Link a chapter page to its notebook: the rendered page and the .ipynb."""
    lang, name = _lang(page.file), PurePosixPath(page.file.src_uri).stem
    notebook = Path(config.docs_dir) / lang / "notebooks" / f"{name}.ipynb"
    if page.file.src_uri.endswith(".ipynb") or not notebook.exists():
        return markdown_text
    w = WORDS[lang]
    download = get_relative_url(_download_url(f"{'en/' if lang == 'en' else ''}notebooks/{name}/"), page.url)
    box = (f'\n\n!!! tip "{w["title"]}"\n    {w["body"]}\n\n'
           f'    [{w["read"]}](notebooks/{name}.ipynb) · '
           f'<a href="{download}" download class="primer-notebook-download">{w["download"]}</a>\n')
    return markdown_text.rstrip("\n") + box


def _wrap_solutions(content, summary):
    out, pos = [], 0
    for start in SOLUTION.finditer(content):
        if start.start() < pos:
            continue
        depth, end = 0, None
        for tag in DIV.finditer(content, start.start()):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                end = tag.end()
                break
        if end is None:
            break
        out += [content[pos:start.start()], f'<details class="note"><summary>{summary}</summary>',
                content[start.start():end], "</details>"]
        pos = end
    return "".join(out) + content[pos:]


STYLE_OPEN = re.compile(r"<style\b[^>]*>")
SHARED_CSS = {}   # file name under assets/stylesheets/ -> the notebook styles written there after the build


def _share_styles(content, page):
    """Move the notebook's <style> blocks into one stylesheet file, named by its content, that every notebook page links.

    mkdocs-jupyter inlines about 600 KB of JupyterLab's CSS into each notebook page; all of them
    carry the same, so a reader downloads it once and the build's HTML parsers (the link check, the
    search index) no longer read it 26 times.
    """
    blocks, kept, pos = [], [], 0
    while (start := content.find("<style", pos)) != -1:   # str.find, not a regex: ~700 KB a page, 26 pages a rebuild
        body = content.find(">", start) + 1
        end = content.find("</style>", body)
        if body == 0 or end == -1 or not STYLE_OPEN.fullmatch(content, start, body):
            break
        blocks.append(content[body:end])
        kept.append(content[pos:start])
        pos = end + len("</style>")
        pos += len(content[pos:pos + 64]) - len(content[pos:pos + 64].lstrip())   # the line break after it
    if not blocks:
        return content
    content = "".join(kept) + content[pos:]
    css = "\n".join(blocks)
    name = f"jupyter.{hashlib.sha256(css.encode()).hexdigest()[:10]}.css"
    SHARED_CSS[name] = css
    href = get_relative_url(f"assets/stylesheets/{name}", page.file.url)
    return f'<link rel="stylesheet" href="{html.escape(href)}">\n' + content


def on_page_content(content, page, config, files):
    """On a notebook page: share its styles, put each solution cell in a closed admonition, offer the .ipynb at the top."""
    if not page.file.src_uri.endswith(".ipynb"):
        return content
    w = WORDS[_lang(page.file)]
    download = get_relative_url(_download_url(page.file.url), page.file.url)
    link = (f'<p class="primer-notebook-download"><a href="{html.escape(download)}" download>'
            f'{w["download"]}</a></p>\n')
    return link + _wrap_solutions(_share_styles(content, page), w["solution"])

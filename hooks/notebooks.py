"""MkDocs hook: each chapter's notebook (docs/<lang>/notebooks/<chapter>.ipynb) as a page of its language, with its .ipynb to download.

mkdocs-static-i18n rebuilds every file as a plain MkDocs File, which counts only Markdown as a page:
left alone, a notebook would be copied as raw JSON to its page URL and have no twin in the other
language. The File class i18n builds with is swapped for one that counts .ipynb as a page, so
mkdocs-jupyter renders it and i18n gives it its twin for the language switcher.
"""

import hashlib
import html
import os
import re
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import version
from pathlib import Path, PurePosixPath

import mkdocs_static_i18n.folder as i18n_folder
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File
from mkdocs.utils import get_relative_url

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
    """Keep mkdocs-jupyter's HTML cache across the two language passes.

    It caches each page's HTML under a key of the notebook's bytes; the notebook it renders is the
    executed copy from _executed below, whose bytes change with primer, so the key is sound. But after
    each language's pass its on_post_build deletes every entry that pass did not use: the other
    language's. That one step is unregistered here.
    """
    plugin = config.plugins.get("mkdocs-jupyter")
    events = config.plugins.events["post_build"]
    events[:] = [e for e in events if getattr(e, "__self__", None) is not plugin or plugin is None]
    return config


def _lang(file):
    return getattr(file, "locale", None) or "zh"


def _download_url(page_url):
    return page_url.rstrip("/") + ".ipynb"   # notebooks/05-mask/ -> notebooks/05-mask.ipynb


ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / ".cache" / "notebooks"   # outside docs/ and site/; ignored by git


def _fingerprint():
    """Return what a notebook's outputs depend on besides its own text: primer's files and the versions that run it."""
    h = hashlib.sha256()
    for path in sorted((ROOT / "primer").rglob("*")):
        if path.suffix in (".py", ".json") and "__pycache__" not in path.parts:
            h.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    for name in ("numpy", "matplotlib", "nbclient", "ipykernel"):
        h.update(f"{name}=={version(name)}".encode())
    h.update(sys.version.encode())
    return h.hexdigest()


def _executed(src, fingerprint):
    """Return a copy of the notebook at src with every cell run, from the cache or run now (errors fail the build)."""
    import nbformat
    from jupyter_client import KernelManager
    from nbclient import NotebookClient

    data = Path(src).read_bytes()
    out = CACHE / f"{hashlib.sha256(data + fingerprint.encode()).hexdigest()}.ipynb"
    if not out.exists():
        nb = nbformat.reads(data.decode("utf-8"), as_version=4)
        with tempfile.TemporaryDirectory() as sockets:   # local sockets: no TCP port, no warning about one
            km = KernelManager(kernel_name="python3", transport="ipc", ip=os.path.join(sockets, "kernel"))
            try:
                NotebookClient(nb, km=km, timeout=600, allow_errors=False,
                               resources={"metadata": {"path": str(ROOT)}}).execute()
            finally:
                if km.has_kernel:
                    km.shutdown_kernel(now=True)
        CACHE.mkdir(parents=True, exist_ok=True)
        tmp = out.with_suffix(f".{os.getpid()}.tmp")
        nbformat.write(nb, tmp)
        os.replace(tmp, out)   # atomic: a concurrent build sees the whole file or none
    return str(out.resolve())


@event_priority(-150)  # after i18n's on_files (-100); before primer_build's (-200), which hands the files to htmlproofer
def on_files(files, config):
    """Add, beside each notebook page, the .ipynb itself to download; render the page from its executed copy.

    The notebooks are run here, two at a time, and kept in .cache/notebooks under a key of the
    notebook's text, primer's files and the versions that run them, so an edit elsewhere runs
    none of them again; mkdocs-jupyter then renders the executed copy (its own execute is off).
    """
    notebooks = [f for f in files if f.src_uri.endswith(".ipynb") and f.is_documentation_page()]
    for file in notebooks:
        src = PurePosixPath(file.src_uri)
        copy = File(str(src.with_suffix(".download.ipynb")), config.docs_dir, config.site_dir, False,
                    dest_uri=_download_url(file.url))
        copy.abs_src_path = file.abs_src_path   # readers download the notebook as written, without outputs
        files.append(copy)
    if notebooks:
        fingerprint = _fingerprint()
        with ThreadPoolExecutor(max_workers=2) as pool:
            runs = list(pool.map(lambda f: _executed(f.abs_src_path, fingerprint), notebooks))
        for file, executed in zip(notebooks, runs):
            file.abs_src_path = executed
    return files


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


def on_page_content(content, page, config, files):
    """On a notebook page: put each solution cell in a closed admonition, and offer the .ipynb at the top."""
    if not page.file.src_uri.endswith(".ipynb"):
        return content
    w = WORDS[_lang(page.file)]
    download = get_relative_url(_download_url(page.file.url), page.file.url)
    link = (f'<p class="primer-notebook-download"><a href="{html.escape(download)}" download>'
            f'{w["download"]}</a></p>\n')
    return link + _wrap_solutions(content, w["solution"])

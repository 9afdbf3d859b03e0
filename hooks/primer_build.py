"""MkDocs hooks: fresh primer per build, zh/en parity, page language for figures, plotly.js on figure pages,
commit-dated builds, and for `mkdocs serve` a cache of executed blocks and a memo of converted pages."""

import copy
import hashlib
import logging
import os
import re
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import markdown
import markdown_exec
from mkdocs.plugins import event_priority
from markupsafe import Markup
from mkdocs.utils import meta
from primer_prerun import run_block
import page_scan
import primer_sources
from primer_sources import SourceGraph

log = logging.getLogger("mkdocs.hooks.primer")

LOCALES = ("zh", "en")
CACHE_ENV = "PRIMER_EXEC_CACHE"   # the exec cache's directory (default: .cache/exec beside mkdocs.yml); "off": none
CACHE_FORMAT = "2"                # bump when what a cache entry holds changes
# Plugins `mkdocs serve` skips: the link check re-parses every page (a third of a cached rebuild), the
# search index segments all Chinese text with jieba (another third). `make build` and the tests run both.
SERVE_SKIPS = ("htmlproofer", "material/search", "search")


def on_startup(command, dirty):
    """Cache executed blocks and converted pages for `mkdocs serve` only: `mkdocs build` converts every page and runs
    every block, every time (ahead, in another process)."""
    if command == "serve":
        install_runner(ExecCache())
        install_page_memo(PageMemo())
    elif command == "build":
        install_prerun()


def load_jieba_in_background(config):
    """Start loading jieba's dictionary (1.3-1.8 s) in a thread, if the search index will segment Chinese with it.

    Material's search plugin loads it at the first page it indexes, late in the build, when nothing else
    is left to run beside it. A thread started now loads it while the build thread mostly waits for
    executed blocks and notebooks (a wait releases the GIL); jieba's own lock makes the first cut wait
    for a load in progress. The dictionary is the one jieba would load: its default, and its cache.
    """
    search = config.plugins.get("material/search") or config.plugins.get("search")
    if search is None or not search.config.get("enabled", True) or getattr(load_jieba_in_background, "started", False):
        return
    try:
        import jieba
    except ImportError:
        return
    load_jieba_in_background.started = True
    threading.Thread(target=jieba.initialize, daemon=True, name="primer-jieba").start()


POLL_S = 0.1   # how often `mkdocs serve` looks for edited files


def on_serve(server, config, builder):
    """Look for edits every 0.1 s, not MkDocs' fixed 0.5 s: on average 0.2 s of every edit's wait, for a few
    milliseconds of stat() calls a look over docs/, primer/ and hooks/ (watchdog's polling observer)."""
    observer = getattr(server, "observer", None)
    if observer is not None and hasattr(observer, "_timeout"):   # private to watchdog: pinned in requirements.lock
        observer._timeout = POLL_S           # for the folders watched after this event (mkdocs.yml's watch:)
        for emitter in list(getattr(observer, "emitters", ())):
            emitter._timeout = POLL_S        # and for those watched before it (docs/, mkdocs.yml)
    return server


def on_config(config):
    """Date the build by its commit, so two builds of one commit are byte-identical (sitemap dates too).

    Under `mkdocs serve`, point the exec cache at this tree and leave the link check and the search
    index to `make build`.
    Without a repository URL there is no page to edit: edit_uri alone is a warning on every page.
    """
    if not config.get("repo_url"):
        config["edit_uri"] = None
    use_fast_page_reader()
    if active_prerun() is not None:   # `mkdocs build`
        load_jieba_in_background(config)
    cache = active_cache()   # `mkdocs serve` loads this module afresh for each rebuild; the runner persists
    if cache is not None:
        cache.configure(config)
        for name in SERVE_SKIPS:   # the slowest steps of a cached rebuild; `make build` runs them
            plugin = config.plugins.get(name)
            if plugin is not None:
                plugin.config["enabled"] = False
    if "SOURCE_DATE_EPOCH" not in os.environ:  # MkDocs dates pages and sitemap.xml.gz by it
        try:
            proc = subprocess.run(["git", "log", "-1", "--format=%ct"], capture_output=True, text=True,
                                  cwd=os.path.dirname(config.config_file_path))
        except OSError:  # no git: dated by the clock, as MkDocs does
            return config
        if proc.returncode == 0 and proc.stdout.strip():
            os.environ["SOURCE_DATE_EPOCH"] = proc.stdout.strip()
    return config


def read_anchors(html):
    """Return the anchors of a built page, as htmlproofer's read_anchors does (page_scan; tests/test_site.py and
    tests/test_build.py compare it with htmlproofer's own)."""
    return page_scan.scan(html)[0]


def _soup(markup, features=None, parse_only=None, **kwargs):
    """htmlproofer's BeautifulSoup: its parse of a page's links is read by page_scan; any other parse is bs4's own."""
    from bs4 import BeautifulSoup

    return page_scan.Links(markup) if parse_only is not None else BeautifulSoup(markup, features, **kwargs)


def use_fast_page_reader():
    """Give htmlproofer page_scan's readers: its own builds two BeautifulSoup trees of every page, most of its time."""
    try:
        import htmlproofer.plugin as proofer
    except ImportError:
        return
    if not hasattr(proofer, "bs4_read_anchors"):
        proofer.bs4_read_anchors = proofer.read_anchors   # kept for the tests that compare the two
        proofer.read_anchors = read_anchors
        proofer.BeautifulSoup = _soup


def on_pre_build(config):
    """Drop primer from sys.modules so `mkdocs serve` picks up every edit to it; check zh/en parity."""
    for name in [m for m in sys.modules if m == "primer" or m.startswith("primer.")]:
        del sys.modules[name]
    cache = active_cache()
    if cache is not None:
        cache.start_build()
        if active_page_memo() is not None:
            active_page_memo().start_build(cache, Path(__file__).resolve().parent)
    # i18n builds the other language inside the first build; one check covers both languages.
    i18n = config.plugins.get("i18n")
    if not getattr(i18n, "building", False):
        blocks = check_parity(config)
        prerun = active_prerun()
        if prerun is not None:
            prerun.start(blocks)


@event_priority(-200)  # after i18n's on_files (-100), which lays out each language's files anew
def on_files(files, config):
    """Give htmlproofer the files this language's build writes; it keeps those it saw before i18n."""
    proofer = config.plugins.get("htmlproofer")
    if proofer is not None:
        proofer.files = list(files)
    return files


def on_env(env, config, files):
    """Keep the theme's compiled templates in .cache/jinja: each rebuild of `mkdocs serve` would compile them again.

    Jinja keys each entry by the template's source and the Python version, and writes it atomically.
    """
    import jinja2

    if active_cache() is not None and active_cache().directory is not None:
        directory = active_cache().directory.parent / "jinja"
        directory.mkdir(parents=True, exist_ok=True)
        env.bytecode_cache = jinja2.FileSystemBytecodeCache(str(directory))
    return env


def on_page_markdown(markdown_text, page, config, files):
    """Tell the figure builders the page language."""
    os.environ["PRIMER_LANG"] = getattr(page.file, "locale", None) or LOCALES[0]
    return markdown_text


def on_post_build(config):
    """Say how many of this language's blocks ran ahead (`mkdocs build` prints it); ship our scripts without comments."""
    prerun = active_prerun()
    if prerun is not None:
        log.info(f"{prerun.taken} of {prerun.asked} executed blocks ran ahead in a worker process")
        prerun.taken = prerun.asked = 0
    for name in OWN_SCRIPTS:
        path = Path(config.site_dir) / "assets" / "javascripts" / name
        if path.exists():
            path.write_text(strip_comment_lines(path.read_text(encoding="utf-8")), encoding="utf-8")


OWN_SCRIPTS = ("plotly-theme.js", "a11y.js", "search-on-demand.js")   # docs/assets/javascripts: written for readers of the repo


def strip_comment_lines(js):
    """Return js without its whole-line // comments and blank lines (our three scripts: 5.6 -> 4.3 KB gzipped).

    Only lines that are nothing but a comment go, so no string or regular expression can be cut.
    """
    return "".join(line for line in js.splitlines(keepends=True) if line.strip() and not line.lstrip().startswith("//"))


def on_page_content(html, page, config, files):
    """Mark pages that hold a plotly figure, so the template loads plotly.js in <head> there only."""
    page.meta["has_plotly"] = "Plotly.newPlot" in html
    return html


# ---- the exec cache of `mkdocs serve`

def source_files(*roots):
    """Return every file under roots, sorted, bytecode left out."""
    return sorted(p for root in roots for p in Path(root).rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc")


def tree_digest(*roots):
    """Return a sha256 over every file under roots: its path and its bytes."""
    h = hashlib.sha256()
    for f in source_files(*roots):
        h.update(f.as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def tree_stamp(*roots):
    """Return every file's path, size and modification time under roots: cheap to compare while a build runs."""
    return [(f.as_posix(), st.st_size, st.st_mtime_ns) for f in source_files(*roots) for st in [f.stat()]]


def versions():
    """Return the versions an executed block's output depends on beyond its own inputs."""
    return primer_sources.versions("numpy", "plotly", "markdown-exec")


class ExecCache:
    """Each executed block's output, and the HTML markdown-exec made of it, stored under a key of all it depends on.

    The key of an output covers the block's code as it runs (so every --8<-- snippet it includes,
    already pasted in), the page language, the primer modules the code imports followed through
    primer's own imports (hooks/primer_sources.py) with every data file of primer, every file of
    docs/snippets (blocks read data files from there), and the Python, numpy, plotly and
    markdown-exec versions. The key of the HTML adds the block's options and mkdocs.yml (the
    Markdown extensions that convert the output). A prose edit then runs and converts nothing; a
    primer edit runs again only the blocks that import what changed.

    A failing block is never stored; a block in a markdown-exec session (shared state) is never
    cached; HTML holding a heading is not stored (markdown-exec adds those to the page's table of
    contents as it converts); nothing is stored if primer or a snippet changed while the build ran
    (it may come from either version). Entries are written to a temporary file and renamed into
    place, so two builds at once never read half an entry.
    """

    def __init__(self):
        self.directory = None
        self.primer_dir = self.snippets_dir = self.config_file = None
        self.shared = self.graph = self.stamp = self.markdown_config = None
        self.block_ids = {}   # check_parity's finds, by page text

    def configure(self, config):
        """Choose the directory (outside docs/ and site/) and the source trees to hash."""
        setting = os.environ.get(CACHE_ENV, "")
        if setting == "off":
            self.directory = None
            return
        base = Path(config.config_file_path).parent
        directory = Path(setting or base / ".cache" / "exec").resolve()
        for inside in (config.docs_dir, config.site_dir):
            if directory == Path(inside).resolve() or Path(inside).resolve() in directory.parents:
                raise ValueError(f"{CACHE_ENV} must lie outside docs/ and site/, got {directory}")
        self.primer_dir = primer_sources.primer_dir(base / "primer")
        self.snippets_dir = base / "docs" / "snippets"
        self.config_file = Path(config.config_file_path)
        self.directory = directory

    @property
    def roots(self):
        return (self.primer_dir, self.snippets_dir)

    def start_build(self):
        """Read the sources once per build: every key of this build uses the result."""
        if self.directory is None:
            return
        self.stamp = tree_stamp(*self.roots)
        self.graph = SourceGraph(self.primer_dir)
        h = hashlib.sha256(CACHE_FORMAT.encode())
        h.update(repr(sorted(versions().items())).encode())
        h.update(tree_digest(self.snippets_dir).encode())
        self.shared = h.hexdigest()
        self.markdown_config = hashlib.sha256(self.config_file.read_bytes()).hexdigest()   # its Markdown extensions

    @property
    def ready(self):
        return self.directory is not None and self.shared is not None

    def key(self, code, lang):
        """Return the key of a block's output."""
        parts = ("out", self.shared, self.graph.digest(code), lang or "", code)
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    def html_key(self, code, lang, options):
        """Return the key of the HTML markdown-exec makes of a block's output (and of its source, if shown)."""
        parts = ("html", self.key(code, lang), self.markdown_config, repr(sorted(options.items())))
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    def path(self, key):
        return self.directory / key[:2] / f"{key}.out"

    def get(self, key):
        try:
            return self.path(key).read_text(encoding="utf-8")
        except FileNotFoundError:
            return None

    def put(self, key, output):
        if tree_stamp(*self.roots) != self.stamp:   # sources edited mid-build: the output may be of either version
            return
        path = self.path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(output)
        os.replace(tmp, path)            # atomic: a reader sees the old entry or the whole new one


HEADING = re.compile(r"<h[1-6][\s>]")


def _python_formatter():
    from markdown_exec._internal.formatters import python as mx_python   # private: pinned in requirements.lock

    return mx_python


def _formatters():
    from markdown_exec._internal.main import formatters   # private: pinned in requirements.lock

    return formatters


def active_cache():
    """Return the ExecCache the wrapped runner uses while `mkdocs serve` runs, or None in a build."""
    return getattr(_python_formatter()._run_python, "exec_cache", None)


def install_runner(cache):
    """Wrap markdown-exec's Python runner and formatter once, so they answer from cache when they can."""
    mx_python = _python_formatter()
    run = mx_python._run_python
    if getattr(run, "exec_cache", None) is not None:
        run.exec_cache = cache
        return

    def cached_run(code, returncode=None, session=None, id=None, **extra):  # noqa: A002
        cached_run.succeeded = False
        cache = cached_run.exec_cache
        if session or not cache.ready:
            output = run(code, returncode=returncode, session=session, id=id, **extra)
        else:
            key = cache.key(code, os.environ.get("PRIMER_LANG"))
            output = cache.get(key)
            if output is None:
                output = run(code, returncode=returncode, session=session, id=id, **extra)   # raises on failure
                cache.put(key, output)
        cached_run.succeeded = True
        return output

    cached_run.exec_cache = cache
    cached_run.succeeded = False
    mx_python._run_python = cached_run

    formatters = _formatters()
    fmt = getattr(formatters["python"], "wrapped", formatters["python"])

    def cached_format(code, md, **options):
        cache = cached_run.exec_cache
        if options.get("session") or not cache.ready:
            return fmt(code=code, md=md, **options)
        key = cache.html_key(code, os.environ.get("PRIMER_LANG"), options)
        html = cache.get(key)
        if html is not None:
            return Markup(html)
        cached_run.succeeded = False
        html = fmt(code=code, md=md, **options)   # markdown-exec reports a failure as HTML and a warning
        if cached_run.succeeded and not HEADING.search(html):
            cache.put(key, str(html))
        return html

    cached_format.wrapped = fmt
    for name in ("python", "py"):
        formatters[name] = cached_format


# ---- the page memo of `mkdocs serve`: a rebuild converts only the pages whose inputs changed

PAGE_MEMO_FORMAT = "1"   # bump when what an entry holds changes


class PageMemo:
    """What converting each page's Markdown gave, kept in memory from one rebuild of `mkdocs serve` to the next.

    Converting the Markdown of all 30 pages was half of a rebuild after a prose edit. A page is converted
    again only when its key changes. The key covers the page's Markdown as the hooks leave it (the
    glossary appended), its source, output path, URL and language; every file of the build with its URL
    (relative links are resolved and checked against them); mkdocs.yml; every file of hooks/, primer/
    and docs/snippets/ (what its blocks import and include, and the code that converts); and the
    versions the exec cache keys by. A page whose conversion logs a warning is not kept, so the warning
    comes again on each rebuild. Nothing is kept from a build during which one of those files changed.
    """

    def __init__(self):
        self.entries = {}   # (language, source path) -> (key, what Page.render set)
        self.build_key = self.roots = self.stamp = None
        self.files = self.files_key = None

    def start_build(self, cache, hooks_dir):
        """Read the sources once per build (each language's), as the exec cache does."""
        self.files = self.files_key = None
        if not cache.ready:
            self.build_key = None
            return
        self.roots = (*cache.roots, Path(hooks_dir))
        self.stamp = tree_stamp(*self.roots)
        parts = (PAGE_MEMO_FORMAT, cache.shared, cache.markdown_config, tree_digest(*self.roots))
        self.build_key = hashlib.sha256("\0".join(parts).encode()).hexdigest()

    def key(self, page, files):
        """Return the key of the page's conversion, or None when there is no build key (the cache is off)."""
        if self.build_key is None:
            return None
        if files is not self.files:
            listed = sorted((f.src_uri, f.dest_uri, f.url) for f in files)
            self.files, self.files_key = files, hashlib.sha256(repr(listed).encode()).hexdigest()
        parts = (self.build_key, self.files_key, page.file.src_uri, page.file.dest_uri, page.file.url,
                 os.environ.get("PRIMER_LANG", ""), page.markdown)
        return hashlib.sha256("\0".join(parts).encode()).hexdigest()

    def restore(self, page, key, files):
        """Give the page what its conversion set, if it was kept under key; return whether it was."""
        entry = self.entries.get((os.environ.get("PRIMER_LANG", ""), page.file.src_uri))
        if entry is None or entry[0] != key:
            return False
        content, toc, title, anchors, links = entry[1]
        page.content, page.toc, page._title_from_render = content, copy.deepcopy(toc), title
        page.present_anchor_ids = set(anchors)
        if links is not None:   # by source path: File objects are made anew each build
            page.links_to_anchors = {files.get_file_from_path(uri): dict(found) for uri, found in links.items()}
        return True

    def store(self, page, key):
        if tree_stamp(*self.roots) != self.stamp:   # sources edited mid-build: the page may be of either version
            return
        links = getattr(page, "links_to_anchors", None)
        self.entries[(os.environ.get("PRIMER_LANG", ""), page.file.src_uri)] = (key, (
            page.content, copy.deepcopy(page.toc), page._title_from_render, frozenset(page.present_anchor_ids or ()),
            None if links is None else {f.src_uri: dict(found) for f, found in links.items()}))


class _Warnings(logging.Handler):
    """Count the warnings logged while it is attached (to the root logger and to MkDocs', which does not propagate)."""

    def __init__(self):
        super().__init__(logging.WARNING)
        self.count = 0

    def emit(self, record):
        self.count += 1


def active_page_memo():
    """Return the PageMemo MkDocs' page conversion uses while `mkdocs serve` runs, or None in a build."""
    from mkdocs.structure.pages import Page

    return getattr(Page.render, "page_memo", None)


def install_page_memo(memo):
    """Wrap MkDocs' page conversion once, so a page whose key is unchanged is not converted again."""
    from mkdocs.structure.pages import Page

    render = getattr(Page.render, "wrapped", Page.render)

    def memo_render(page, config, files):
        memo = memo_render.page_memo
        key = memo.key(page, files)
        if key is not None and memo.restore(page, key, files):
            return
        warnings = _Warnings()
        loggers = (logging.getLogger(), logging.getLogger("mkdocs"))
        for logger in loggers:
            logger.addHandler(warnings)
        try:
            render(page, config, files)
        finally:
            for logger in loggers:
                logger.removeHandler(warnings)
        if key is not None and not warnings.count:
            memo.store(page, key)

    memo_render.page_memo, memo_render.wrapped = memo, render
    Page.render = memo_render


# ---- `mkdocs build`: every block run ahead, in another process, while this one renders pages

PRERUN_MIN_BLOCKS = 8   # fewer run in the build's process: starting a worker costs 0.5-0.9 s of CPU, a block 0.06 s


class Prerun:
    """The blocks of both languages, run in one worker process in page order while the build renders pages.

    markdown-exec's runner then takes a block's output from here, by its code and language: the same
    code run the same way (a fresh namespace each, primer imported once for the build, the page
    language set), so the same output (tests/test_reproducible.py compares two builds byte for byte;
    tests/test_build.py compares with blocks run in the build's own process). A block that fails
    there, or that the worker has not been given, runs in the build's process as before, so a failing
    block is reported exactly as without this. Blocks of a markdown-exec session share state and
    always run in the build's process.
    """

    def __init__(self):
        self.futures, self.pool = {}, None
        self.taken = self.asked = 0

    def start(self, blocks):
        from concurrent.futures import ProcessPoolExecutor
        import multiprocessing

        todo = [(locale, code, options) for locale, language, code, options in blocks
                if language in ("python", "py") and not options.get("session")]
        workers = int(os.environ.get("PRIMER_PRERUN_WORKERS", "1"))   # 0: run every block in the build's process
        if len(todo) < PRERUN_MIN_BLOCKS or workers < 1:
            return
        # spawn, not fork: this process has threads (the notebooks' kernels)
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
        hooks = str(Path(__file__).resolve().parent)
        sys.path.insert(0, hooks)   # a spawned worker starts with this sys.path: it imports primer_prerun from hooks/
        try:
            for locale, code, options in sorted(todo, key=lambda t: t[0] != LOCALES[0]):   # the first pass's language first
                key = (code, locale)
                if key not in self.futures:
                    self.futures[key] = self.pool.submit(run_block, code, locale, options.get("returncode", 0),
                                                         options.get("id", ""), dict(options.get("extra", {})))
        finally:
            sys.path.remove(hooks)
        self.pool.shutdown(wait=False)   # the worker stops once the queue is done

    def take(self, code, lang):
        """Return the block's output from the worker, or None if the build should run it itself."""
        future = self.futures.pop((code, lang), None)
        try:
            output = None if future is None else future.result()
        except Exception:  # noqa: BLE001 - the worker died (killed, out of memory): the build runs the block itself
            output = None
        self.taken += output is not None
        self.asked += 1
        return output


def active_prerun():
    return getattr(_python_formatter()._run_python, "prerun", None)


def install_prerun():
    """Wrap markdown-exec's Python runner so a block already run ahead gives its output."""
    mx_python = _python_formatter()
    run = getattr(mx_python._run_python, "wrapped", mx_python._run_python)

    def prerun_run(code, returncode=None, session=None, id=None, **extra):  # noqa: A002
        if not session and returncode in (None, 0) and not extra:
            output = prerun_run.prerun.take(code, os.environ.get("PRIMER_LANG") or LOCALES[0])
            if output is not None:
                return output
        return run(code, returncode=returncode, session=session, id=id, **extra)

    prerun_run.prerun, prerun_run.wrapped = Prerun(), run
    mx_python._run_python = prerun_run


def exec_block_finder(config):
    """Return find(markdown_text) -> ids of the blocks markdown-exec runs in it, in the order it meets them.

    The text goes through the site's own Markdown extensions, and markdown-exec's own validator
    decides which fences run (exec="yes" runs; exec="no" does not), but nothing is executed.
    """
    found, blocks = [], []

    def record(language, inputs, options, attrs, md):
        runs = markdown_exec.validator(language, inputs, options, attrs, md)
        if runs:
            found.append(options["id"])
        return runs

    def keep(src, language, css_class, options, md, **kwargs):   # the code as the block runs it, snippets pasted in
        blocks.append((language, src, options))
        return ""

    fences_by_name = {}
    for fence in config.mdx_configs.get("pymdownx.superfences", {}).get("custom_fences", []):
        if fence.get("validator") is markdown_exec.validator:
            fence = dict(fence, validator=record, format=keep)
        fences_by_name.setdefault(fence["name"], fence)  # each rebuild registers markdown-exec's fences again
    configs = dict(config.mdx_configs)
    configs["pymdownx.superfences"] = dict(configs.get("pymdownx.superfences", {}),
                                           custom_fences=list(fences_by_name.values()))
    md = markdown.Markdown(extensions=config.markdown_extensions, extension_configs=configs)

    def find(markdown_text):
        found.clear()
        blocks.clear()
        md.reset().convert(meta.get_data(markdown_text)[0])
        find.blocks = list(blocks)   # (language, code, options) of each block, for prerun
        return list(found)

    find.blocks = []
    return find


def check_parity(config):
    """Warn unless each page exists in every language and runs the same exec blocks, each with its own id.

    Reads both languages' sources from docs/, so the result does not depend on which language
    i18n builds first.
    """
    docs = Path(config.docs_dir)
    pages = {locale: {p.relative_to(docs / locale).as_posix() for p in (docs / locale).rglob("*.md")}
             for locale in LOCALES}
    finder = []
    cache = active_cache()   # under `mkdocs serve`, a page's ids are kept while its text, the snippets and the config stay
    if cache is not None and cache.ready:
        memo, salt = cache.block_ids, cache.shared + Path(config.config_file_path).read_text(encoding="utf-8")
    else:
        memo, salt = {}, ""

    seen = []   # (locale, language, code, options) of every block read afresh (a build reads every page afresh)

    def find(text, locale):
        key = hashlib.sha256((salt + "\0" + text).encode()).hexdigest()
        if key not in memo:
            if not finder:
                finder.append(exec_block_finder(config))
            memo[key] = finder[0](text)
            seen.extend((locale, *block) for block in finder[0].blocks)
        return memo[key]
    for path in sorted(set().union(*pages.values())):
        present = [locale for locale in LOCALES if path in pages[locale]]
        if len(present) != len(LOCALES):
            log.warning(f"{path}: exists only in {', '.join(present)}; every page lands in zh and en or not at all")
            continue
        ids = {}
        for locale in LOCALES:
            ids[locale] = find((docs / locale / path).read_text(encoding="utf-8"), locale)
            if "" in ids[locale]:
                log.warning(f"{locale}/{path}: an exec block has no id=; give every exec block one")
            if len(set(ids[locale])) != len(ids[locale]):
                log.warning(f"{locale}/{path}: exec block ids repeat: {ids[locale]}")
        if len({tuple(v) for v in ids.values()}) != 1:
            log.warning(f"{path}: zh and en run different exec blocks: {ids}")
    return seen

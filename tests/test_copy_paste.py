"""A reader copies any Python block off a built page and runs it: it must work.

The code is taken from the built HTML, i.e. exactly what a reader sees and what the copy button copies:
the sources of executed blocks (in the "代码"/"Code" tab, or shown above the result) and plain python
blocks. The HTML carries no language, so each block is matched to its fence in the page's Markdown
(with the --8<-- snippets expanded) to learn whether it is Python, executed, in which markdown-exec
session, and whether it is a fragment. Each program runs as a fresh interpreter runs it, in an empty
directory, with only PATH in the environment (a reader has no PRIMER_LANG): forked from tests/paste_server.py,
which has loaded numpy and plotly once (never primer), and checked against `python pasted.py` by a probe. Blocks
sharing a markdown-exec `session=` run together, in page order; every other block runs alone. Only blocks written with the
fence ```{.python .fragment} (a `fragment` class on the rendered block) are skipped.
"""

import ast
import html
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html.parser import HTMLParser

import pytest

from conftest import DOCS, LANGS, ROOT, html_path, once_per_session, page_names

PYTHON = ("python", "py", "python3")
HIDE = "markdown-exec: hide"       # markdown-exec drops source lines carrying this marker from the page


# ---- the built page: every highlighted code block, as text, in page order

@dataclass
class HtmlBlock:
    classes: list
    text: str = ""

    @property
    def fragment(self):
        return "fragment" in self.classes


class _CodeBlocks(HTMLParser):
    """Collect the text of each <div class="... highlight"> block's <code>, leaving out line numbers."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks, self.depth, self.in_code, self.skip = [], 0, False, 0
        self.current = None

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if self.current is None:
            if tag == "div" and "highlight" in classes:
                self.current, self.depth = HtmlBlock(classes), 1
            return
        if tag == "div":
            self.depth += 1
        if self.skip or any(c in ("linenos", "linenodiv", "filename") for c in classes):
            self.skip += 1
        elif tag == "code":
            self.in_code = True

    def handle_endtag(self, tag):
        if self.current is None:
            return
        if self.skip:
            self.skip -= 1
            return
        if tag == "code":
            self.in_code = False
        elif tag == "div":
            self.depth -= 1
            if self.depth == 0:
                self.blocks.append(self.current)
                self.current = None

    def handle_data(self, data):
        if self.current is not None and self.in_code and not self.skip:
            self.current.text += data


def html_blocks(page_html):
    """Return the code blocks of a built page, in page order."""
    parser = _CodeBlocks()
    parser.feed(page_html)
    parser.close()
    return parser.blocks


def normalize(code):
    lines = [line.rstrip() for line in html.unescape(code).replace("\r\n", "\n").split("\n")]
    return "\n".join(lines).strip("\n")


# ---- the Markdown source: fences with their language and options

@dataclass
class Fence:
    lang: str
    classes: list
    attrs: dict
    body: str
    line: int
    shown: str = field(init=False)

    def __post_init__(self):
        self.shown = normalize("\n".join(l for l in self.body.split("\n") if HIDE not in l))

    @property
    def python(self):
        return self.lang in PYTHON

    @property
    def executed(self):
        return self.attrs.get("exec", "").lower() in ("1", "true", "on", "yes")

    @property
    def fragment(self):
        return "fragment" in self.classes

    @property
    def visible(self):
        """Whether the reader sees this block's source (markdown-exec hides it unless source= is set)."""
        return not self.executed or self.attrs.get("source", "") not in ("", "none")


SNIPPET = re.compile(r"^(?P<indent>[ \t]*)-{1,}8<-{1,}[ \t]+(?P<q>[\"'])(?P<path>[^\"']+)(?P=q)[ \t]*$")
OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*)$")


def expand_snippets(text):
    """Replace each `--8<-- "path"` line by the file under docs/snippets, indented like the line."""
    out = []
    for line in text.split("\n"):
        m = SNIPPET.match(line)
        if not m:
            out.append(line)
            continue
        path, _, lines = m["path"].partition(":")
        content = (DOCS / "snippets" / path).read_text(encoding="utf-8").rstrip("\n").split("\n")
        if lines:
            start, _, end = lines.partition(":")
            content = content[int(start or 1) - 1:int(end) if end else None]
        out.extend(m["indent"] + c if c else c for c in content)
    return "\n".join(out)


def parse_info(info):
    info = info.strip()
    if info.startswith("{"):
        inner = info.strip("{}")
        classes = re.findall(r"(?:^|\s)\.([\w-]+)", inner)
        lang = classes[0] if classes else ""
    else:
        lang = info.split()[0] if info else ""
        classes = [lang] if lang else []
    attrs = dict(re.findall(r'([\w-]+)="([^"]*)"', info))
    return lang.lower(), classes, attrs


def markdown_fences(text):
    """Return the top-level fenced blocks of a Markdown text (snippets expanded), in order."""
    lines = expand_snippets(text).split("\n")
    fences, i = [], 0
    while i < len(lines):
        m = OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence = m["indent"], m["fence"]
        close = re.compile(r"^[ \t]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$")
        body, j = [], i + 1
        while j < len(lines) and not close.match(lines[j]):
            line = lines[j]
            body.append(line[len(indent):] if line.startswith(indent) else line.lstrip())
            j += 1
        lang, classes, attrs = parse_info(m["info"])
        fences.append(Fence(lang, classes, attrs, "\n".join(body), i + 1))
        i = j + 1
    return fences


# ---- a page's programs

@dataclass
class Program:
    label: str
    code: str


def page_source(lang, name):
    return (DOCS / lang / name).read_text(encoding="utf-8")


def classified_blocks(page_html, markdown):
    """Return [(HtmlBlock, Fence or None)]: each block on the page with the Python fence it shows."""
    by_text = {}
    for fence in markdown_fences(markdown):
        if fence.python and fence.visible:
            by_text.setdefault(fence.shown, fence)
    return [(block, by_text.get(normalize(block.text))) for block in html_blocks(page_html)]


def programs(page_html, markdown):
    """Return the programs a reader can paste from the page, in page order; fragments are left out."""
    result, sessions = [], {}
    for block, fence in classified_blocks(page_html, markdown):
        if fence is None or block.fragment:
            continue
        where = f"line {fence.line}" + (f", exec id={fence.attrs['id']}" if "id" in fence.attrs else "")
        session = fence.attrs.get("session") if fence.executed else None
        if session:
            if session not in sessions:
                sessions[session] = Program(f"session {session!r} (from {where})", "")
                result.append(sessions[session])
            sessions[session].code += normalize(block.text) + "\n\n"
        else:
            result.append(Program(where, normalize(block.text) + "\n"))
    return result


PASTE_TIMEOUT_S = 300
READER_ENV = {"PATH": "/usr/bin:/bin"}   # a reader's shell gives a pasted program no PRIMER_LANG, no PYTHONPATH
_idle_servers = queue.SimpleQueue()      # tests/paste_server.py processes of this pytest process, not in use


def run_pasted(directory, tmp_path_factory):
    """Run directory/pasted.py as `python pasted.py` would run there (tests/paste_server.py); return its outcome.

    Takes an idle server, or starts one with the reader's environment; one per thread at a time."""
    try:
        server = _idle_servers.get_nowait()
    except queue.Empty:
        server = subprocess.Popen([sys.executable, str(ROOT / "tests" / "paste_server.py")], env=READER_ENV,
                                  cwd=tmp_path_factory.mktemp("paste-server"), stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True, start_new_session=True)
    server.stdin.write(f"{directory}\n")
    server.stdin.flush()
    # a program that never ends fails its test: the server and the child running it are stopped
    timer = threading.Timer(PASTE_TIMEOUT_S, os.killpg, (server.pid, signal.SIGKILL))
    timer.start()
    try:
        reply = server.stdout.readline()
    finally:
        timer.cancel()
    if not reply:
        pytest.fail(f"{directory / 'pasted.py'} did not end within {PASTE_TIMEOUT_S} s", pytrace=False)
    _idle_servers.put(server)   # it ends when this process does: its stdin closes
    returncode = int(reply)
    return {"returncode": returncode, "stdout": (directory / "stdout.txt").read_text(encoding="utf-8"),
            "stderr": (directory / "stderr.txt").read_text(encoding="utf-8")}


def run(code, tmp_path_factory):
    """Run code as a fresh interpreter would, in an empty directory with only PATH set; once per test session for
    each code text (the zh and en pages paste the same code, and may be tested on different pytest-xdist workers)."""
    def paste():
        cwd = tmp_path_factory.mktemp("paste")
        (cwd / "pasted.py").write_text(code, encoding="utf-8")
        return run_pasted(cwd, tmp_path_factory)
    return subprocess.CompletedProcess("pasted.py", **once_per_session("pasted:" + code, paste))


PROBE = """import os, sys
print(repr((sys.argv, os.getcwd(), sys.path, dict(os.environ), __name__, __file__, sys.stdin.read(),
            sorted(k for k in globals() if not k.startswith("__")), sys.flags)))
sys.stderr.write("to stderr\\n")
import atexit
atexit.register(lambda: print("at exit"))
"""


@pytest.mark.parametrize("tail, returncode", [
    ("", 0), ("raise ValueError('boom')", 1), ("sys.exit(3)", 3), ("sys.exit('bye')", 1),
    ("numpy.zeros(1)", 1), ("plotly.io.to_json(1)", 1),   # loaded ahead in the server, yet not the program's until imported
    ("import plotly.io as pio, primer\nprint(pio.templates.default, sorted(vars(primer)))", 0)])
def test_the_paste_server_runs_a_program_as_a_fresh_interpreter_does(tmp_path_factory, tail, returncode):
    """Oracle: the same probe run by `python pasted.py` with the reader's environment, in the same directory."""
    code = PROBE + tail + "\n"
    where = tmp_path_factory.mktemp("probe")
    (where / "pasted.py").write_text(code, encoding="utf-8")
    fresh = subprocess.run([sys.executable, "pasted.py"], cwd=where, env=READER_ENV, stdin=subprocess.DEVNULL,
                           capture_output=True, text=True, timeout=60)
    served = run_pasted(where, tmp_path_factory)
    assert served["returncode"] == fresh.returncode == returncode
    assert served["stdout"] == fresh.stdout
    last = lambda text: text.strip().splitlines()[-1]   # the traceback shows the server's frame too, the same verdict
    assert last(served["stderr"]) == last(fresh.stderr)


def test_a_pasted_program_that_never_ends_fails_its_test(tmp_path_factory, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "PASTE_TIMEOUT_S", 1)
    where = tmp_path_factory.mktemp("forever")
    (where / "pasted.py").write_text("import time\ntime.sleep(600)\n", encoding="utf-8")
    with pytest.raises(pytest.fail.Exception, match="did not end within 1 s"):
        run_pasted(where, tmp_path_factory)


# ---- the tests

@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("lang", LANGS)
def test_every_python_block_on_the_page_runs_as_pasted(site, tmp_path_factory, lang, name):
    progs = programs(html_path(site, lang, name).read_text(encoding="utf-8"), page_source(lang, name))
    with ThreadPoolExecutor(max_workers=2) as pool:
        procs = list(pool.map(lambda p: run(p.code, tmp_path_factory), progs))
    failures = [f"{lang}/{name} {p.label} exited {r.returncode}:\n{p.code[:1500]}\n--- stderr ---\n{r.stderr[-2500:]}"
                for p, r in zip(progs, procs) if r.returncode != 0]
    assert not failures, "\n\n".join(failures)


@pytest.mark.parametrize("name", page_names())
@pytest.mark.parametrize("lang", LANGS)
def test_every_visible_python_fence_is_found_on_the_built_page(site, lang, name):
    """The extractor sees every Python block the Markdown shows, with its fragment mark; nothing is missed."""
    blocks = classified_blocks(html_path(site, lang, name).read_text(encoding="utf-8"), page_source(lang, name))
    found = {id(f): b for b, f in blocks if f is not None}
    problems = []
    for fence in markdown_fences(page_source(lang, name)):
        if not (fence.python and fence.visible):
            continue
        block = found.get(id(fence)) or next((b for b, f in blocks if f is not None and f.shown == fence.shown), None)
        if block is None:
            problems.append(f"line {fence.line}: python block not found on the built page:\n{fence.shown[:300]}")
        elif block.fragment != fence.fragment:
            problems.append(f"line {fence.line}: fragment mark {fence.fragment} in Markdown, {block.fragment} in HTML")
    assert not problems, f"{lang}/{name}:\n" + "\n".join(problems)


FRAGMENT_DEMO = '''
Text.

```{.python .fragment}
x = y + 1
```

```python
print(1)
```

!!! note
    ```{.python .fragment}
    z = w
    ```

```bash
make test
```
'''


def render_like_the_site(markdown):
    """Render Markdown with the site's own markdown_extensions from mkdocs.yml."""
    import markdown as md
    from mkdocs.utils import yaml_load

    config = yaml_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    names, configs = [], {}
    for ext in config["markdown_extensions"]:
        if isinstance(ext, dict):
            (name, options), = ext.items()
            names.append(name)
            configs[name] = options or {}
        else:
            names.append(ext)
    configs.pop("pymdownx.snippets", None)
    names = [n for n in names if n != "pymdownx.snippets"]
    return md.Markdown(extensions=names, extension_configs=configs).convert(markdown)


def test_the_fragment_mark_is_detected_in_the_rendered_html():
    page_html = render_like_the_site(FRAGMENT_DEMO)
    blocks = classified_blocks(page_html, FRAGMENT_DEMO)
    assert [(normalize(b.text), b.fragment, f is not None) for b, f in blocks] == [
        ("x = y + 1", True, True), ("print(1)", False, True), ("z = w", True, True), ("make test", False, False)]
    assert [p.code for p in programs(page_html, FRAGMENT_DEMO)] == ["print(1)\n"]


def test_sessions_run_together_and_other_blocks_alone():
    markdown = '''
```python exec="1" session="s" source="above"
a = 1
```

```python exec="1" source="above"
b = 2
```

```python exec="1" session="s" source="above"
print(a)
```
'''
    page_html = "".join(f'<div class="highlight"><pre><span></span><code>{c}\n</code></pre></div>'
                        for c in ("a = 1", "b = 2", "print(a)"))
    assert [p.code for p in programs(page_html, markdown)] == ["a = 1\n\nprint(a)\n\n", "b = 2\n"]


# ---- the copy-and-take-away numpy cores

# Chapter snippet dir -> functions its core_numpy.py must define.
CORE_FILES = {
    "01-rnn/core_numpy.py": ["rnn_forward", "rnn_backward", "cross_entropy_error"],
    "03-attention/core_numpy.py": ["additive_score", "dot_score", "bilinear_score", "scaled_dot_score", "self_attention"],
    "04-self-cross-heads/core_numpy.py": ["split_heads", "merge_heads", "multi_head_attention", "sinusoidal_encoding"],
    "05-mask/core_numpy.py": ["causal_mask", "masked_softmax", "attention"],
    "06-encoder/core_numpy.py": ["full_mask", "self_attention", "mask_tokens"],
    "07-decoder/core_numpy.py": ["causal_mask", "self_attention", "next_token_pairs", "leak"],
    "08-encoder-decoder/core_numpy.py": ["attention", "memory_kv", "cross_attention"],
    "09-choosing/core_numpy.py": ["masks_for", "reads", "attention_layer"],
    "10-kv-cache/core_numpy.py": ["decode_step"],
    "11-kv-memory/core_numpy.py": ["kv_cache_bytes"],
    "13-today/core_numpy.py": ["attention", "image_prefix_model", "image_prefix_reads"],
}


def imported_modules(source):
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            yield (node.module or "").split(".")[0] if node.level == 0 else "."


@pytest.mark.parametrize("core", CORE_FILES)
def test_core_numpy_is_self_contained_and_shown_on_both_pages(site, core):
    path = DOCS / "snippets" / core
    name = core.split("/")[0] + ".md"
    assert path.exists(), f"chapter {name} has no copy-and-take-away numpy core {core}"
    source = path.read_text(encoding="utf-8")
    modules = set(imported_modules(source))
    assert "primer" not in modules, f"{core} imports primer; a reader could not paste it on its own"
    assert modules <= {"numpy"} | set(sys.stdlib_module_names), f"{core} imports {sorted(modules)}; numpy only"
    defined = {n.name for n in ast.parse(source).body if isinstance(n, ast.FunctionDef)}
    assert set(CORE_FILES[core]) <= defined, f"{core} defines {sorted(defined)}, expected {CORE_FILES[core]}"
    for lang in LANGS:
        page = html_path(site, lang, name)
        assert page.exists(), f"{core} exists but its chapter {lang}/{name} is not built"
        shown = [normalize(b.text) for b in html_blocks(page.read_text(encoding="utf-8"))]
        assert normalize(source) in shown, f"{core} is not shown as a code block on {lang}/{name}"

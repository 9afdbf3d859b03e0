"""Code as a reader copies it off a built page: the page's code blocks matched to their fences, run as pasted.

Shared by tests/test_copy_paste.py and tests/test_torch_twins.py.
"""

import html
import re
import subprocess
import sys
from dataclasses import dataclass
from html.parser import HTMLParser

import pytest
from site_reader import DOCS

PYTHON = ("python", "py", "python3")
HIDE = "markdown-exec: hide"  # markdown-exec drops source lines carrying this marker from the page
PASTE_TIMEOUT_S = 300
READER_ENV = {"PATH": "/usr/bin:/bin"}


@dataclass
class Block:
    """A highlighted code block of a built page: its classes and its text (line numbers left out)."""

    classes: list
    text: str = ""


class _CodeBlocks(HTMLParser):
    """Collect each <div class="... highlight"> block's <code> text, in page order."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks, self.current, self.depth, self.in_code, self.skip = [], None, 0, False, 0

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if self.current is None:
            if tag == "div" and "highlight" in classes:
                self.current, self.depth = Block(classes), 1
            return
        self.depth += tag == "div"
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
        self.in_code = self.in_code and tag != "code"
        self.depth -= tag == "div"
        if self.depth == 0:
            self.blocks.append(self.current)
            self.current = None

    def handle_data(self, data):
        if self.current is not None and self.in_code and not self.skip:
            self.current.text += data


def html_blocks(page_html):
    parser = _CodeBlocks()
    parser.feed(page_html)
    parser.close()
    return parser.blocks


def normalize(code):
    return "\n".join(line.rstrip() for line in html.unescape(code).replace("\r\n", "\n").split("\n")).strip("\n")


@dataclass
class Fence:
    """A fenced block of the Markdown: its language, classes, attributes (exec, session, source, ...) and what the
    reader sees of it."""

    lang: str
    classes: list
    attrs: dict
    shown: str
    line: int

    @property
    def executed(self):
        return self.attrs.get("exec", "").lower() in ("1", "true", "on", "yes")

    @property
    def visible_python(self):
        """Python whose source the reader sees (markdown-exec hides an executed block's unless source= is set)."""
        return self.lang in PYTHON and (not self.executed or self.attrs.get("source", "") not in ("", "none"))


SNIPPET = re.compile(r"^(?P<indent>[ \t]*)-+8<-+[ \t]+(?P<q>[\"'])(?P<path>[^\"']+)(?P=q)[ \t]*$")
OPEN = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*)$")


def expand_snippets(text):
    """Replace each `--8<-- "path[:start:end]"` line by those lines of the file under docs/snippets, indented alike."""
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
            content = content[int(start or 1) - 1 : int(end) if end else None]
        out.extend(m["indent"] + c if c else c for c in content)
    return "\n".join(out)


def markdown_fences(text):
    """Return the top-level fenced blocks of a Markdown text (snippets expanded), in order."""
    lines, fences, i = expand_snippets(text).split("\n"), [], 0
    while i < len(lines):
        m = OPEN.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, info = m["indent"], m["fence"], m["info"].strip()
        close = re.compile(r"^[ \t]*" + re.escape(fence[0]) + "{" + str(len(fence)) + r",}[ \t]*$")
        body, j = [], i + 1
        while j < len(lines) and not close.match(lines[j]):
            body.append(lines[j][len(indent) :] if lines[j].startswith(indent) else lines[j].lstrip())
            j += 1
        classes = re.findall(r"(?:^|\s)\.([\w-]+)", info.strip("{}")) if info.startswith("{") else info.split()[:1]
        shown = normalize("\n".join(b for b in body if HIDE not in b))
        fences.append(
            Fence(
                (classes[0] if classes else "").lower(),
                classes,
                dict(re.findall(r'([\w-]+)="([^"]*)"', info)),
                shown,
                i + 1,
            )
        )
        i = j + 1
    return fences


def classified_blocks(page_html, markdown):
    """Return [(Block, Fence or None)]: each block on the page with the visible Python fence it shows."""
    by_text = {}
    for fence in markdown_fences(markdown):
        if fence.visible_python:
            by_text.setdefault(fence.shown, fence)
    return [(block, by_text.get(normalize(block.text))) for block in html_blocks(page_html)]


def programs(page_html, markdown):
    """Return {code: label}: the programs a reader can paste from the page, in page order; fragments left out."""
    result, sessions = {}, {}
    for block, fence in classified_blocks(page_html, markdown):
        if fence is None or "fragment" in block.classes:
            continue
        where = f"line {fence.line}"
        session = fence.attrs.get("session") if fence.executed else None
        if session:
            sessions.setdefault(session, [where, ""])[1] += normalize(block.text) + "\n\n"
        else:
            result[normalize(block.text) + "\n"] = where
    result.update({code: f"session from {where}" for where, code in sessions.values()})
    return result


def run_pasted(code, where, timeout=PASTE_TIMEOUT_S):
    """Run code as `python pasted.py` in the empty directory where, with a reader's environment; fail on a timeout."""
    (where / "pasted.py").write_text(code, encoding="utf-8")
    try:
        return subprocess.run(
            [sys.executable, "pasted.py"],
            cwd=where,
            env=READER_ENV,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{where / 'pasted.py'} did not end within {timeout} s", pytrace=False)

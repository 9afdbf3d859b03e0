"""The in-page runner's Python side: run a block as __main__ in the browser, streaming what it prints.

hooks/runner.py packs this file into primer.zip as `runner_worker.py`; docs/assets/runner/worker.js imports it in
Pyodide and calls `run` for each block (tests/js/run_blocks.cjs does the same under Node). It is not a build hook: it
only defines functions, and imports nothing outside the standard library.
"""

import io
import sys
import time
import traceback

# Printed text is handed over at once unless the last hand-over was under FLUSH_S ago: a print loop sends a few hundred
# messages a second, not millions; what it prints in its last FLUSH_S before it falls silent waits for its next write,
# its end, or print(..., flush=True).
FLUSH_S = 0.005
CHUNK_CHARS = 65536  # of what a loop prints between two hand-overs, the page gets the last lines, this many characters
TRACEBACK_LINES = 6  # the last frames and the message
# A notebook page's cells share one namespace, as in a kernel: session name -> its globals, kept until the page's
# interpreter is replaced (Stop, the time limit, running out of memory), which starts every session afresh.
SESSIONS = {}


class Streamed(io.TextIOBase):
    """A text stream that hands what is written to post(text) in chunks, at most every FLUSH_S seconds."""

    def __init__(self, post):
        super().__init__()
        self.post, self.parts, self.sent = post, [], 0.0

    def writable(self):
        return True

    def write(self, s):
        if self.closed:
            raise ValueError("I/O operation on closed file.")
        if not isinstance(s, str):
            raise TypeError(f"write() argument must be str, not {type(s).__name__}")
        self.parts.append(s)
        now = time.monotonic()
        if now - self.sent >= FLUSH_S:
            self.send(now)
        return len(s)

    def flush(self):
        """Hand over what is written now (print(..., flush=True) calls this)."""
        self.send()

    def send(self, now=None):
        """Post what is written and not yet sent, if anything: post(text, cut), cut telling that its start was cut."""
        if self.parts:
            text, self.parts = "".join(self.parts), []
            cut = len(text) > CHUNK_CHARS
            if cut:  # the page keeps the last lines anyway: do not hand it megabytes a second to throw away
                text = text[-CHUNK_CHARS:]
                text = text[text.find("\n") + 1 :]
            self.post(text, cut)
        self.sent = time.monotonic() if now is None else now


def refuse_input(message):
    """Return an input() that raises RuntimeError(message): a page has no console to type into."""

    def no_input(prompt=""):
        raise RuntimeError(message)

    return no_input


def run(src, post, no_input="input() is not supported here", session=""):
    """Run src as __main__ in a fresh namespace (or session's), posting its prints; return (traceback, MemoryError)."""
    stream = Streamed(post)
    namespace = {"__name__": "__main__", "input": refuse_input(no_input)}
    if session:
        namespace = SESSIONS.setdefault(session, namespace)
    saved = sys.stdout, sys.stderr, sys.stdin
    sys.stdout = sys.stderr = stream
    sys.stdin = io.StringIO()  # read at its end: EOF, never a browser prompt
    error, memory = "", False
    try:
        exec(compile(src, "<block>", "exec"), namespace)
    except BaseException as e:  # noqa: BLE001 - whatever the reader's program raises is its output
        lines = "".join(traceback.format_exception(type(e), e, e.__traceback__.tb_next)).rstrip().splitlines()
        error, memory = "\n".join(lines[-TRACEBACK_LINES:]), isinstance(e, MemoryError)
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved
    stream.send()
    return error, memory

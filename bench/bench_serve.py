"""`make serve` timed: the edit loop in a throw-away copy (a prose edit, a primer edit).

Each run starts `mkdocs serve` on a free port of 127.0.0.1 and polls the served page until a change
shows, so the time covers the rebuild of both languages and whatever the server does before it
serves the new page.
"""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from contextlib import contextmanager
from pathlib import Path

POLL_S = 0.05  # the wait is measured to within this; a request costs the server about a millisecond
TIMEOUT_S = 900
MARKDOWN_PAGE = ("docs/en/05-mask.md", "en/05-mask/")
# A primer module whose value the page shows and which trains nothing: chapter 5's padded batch, whose words label the
# padding figure. (Chapter 10's toy vocabulary served until that page stopped printing it: the bench waited in vain.)
PRIMER_EDIT = ("primer/inputs/mask.py", '"cat"', "en/05-mask/")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url):
    """Return the page at url as text, or None while nothing answers there."""
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.read().decode("utf-8", "replace")
    except (urllib.error.URLError, ConnectionError, TimeoutError, OSError):
        return None


def wait_for(url, shows=None, proc=None, timeout=TIMEOUT_S):
    """Poll url until it answers (and contains `shows`, if given); return the seconds it took."""
    start = time.perf_counter()
    while time.perf_counter() - start < timeout:
        text = fetch(url)
        if text is not None and (shows is None or shows in text):
            return time.perf_counter() - start
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"mkdocs serve exited with {proc.returncode} before {url} showed {shows!r}")
        time.sleep(POLL_S)
    raise TimeoutError(f"{url} did not show {shows!r} within {timeout} s")


@contextmanager
def mkdocs_serve(root, python, log):
    """Run `python -m mkdocs serve` in root on a free port; yield (process, base URL); stop it after."""
    port = free_port()
    env = dict(
        os.environ,
        NO_MKDOCS_2_WARNING="1",
        SOURCE_DATE_EPOCH="1700000000",
        PYTHONDONTWRITEBYTECODE="1",
        PRIMER_CHECK_LINKS="false",
    )  # as `make serve`
    with open(log, "w") as out:
        proc = subprocess.Popen(
            [str(python), "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
            cwd=root,
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
        try:
            yield proc, f"http://127.0.0.1:{port}/"
        except (RuntimeError, TimeoutError) as e:
            out.flush()
            raise RuntimeError(f"{e}; the end of mkdocs' log:\n{Path(log).read_text(errors='replace')[-3000:]}") from e
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()


def copy_tree(source, dest):
    """Copy the files git would see in source (tracked and untracked, not ignored: no .venv, no site/)."""
    listed = (
        subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=source, check=True, capture_output=True
        )
        .stdout.decode()
        .split("\0")
    )
    for rel in filter(None, listed):
        src = Path(source) / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)


def edit_loop(source, python=sys.executable, repeats=5):
    """Serve a copy of source; time the first build, then until each of `repeats` Markdown and primer edits shows.

    One edit's time varies by a second or more with what else the machine does: report the median and the range.
    """
    with tempfile.TemporaryDirectory(prefix="primer-bench-serve-") as tmp:
        root = Path(tmp) / "repo"
        copy_tree(source, root)
        md, src = root / MARKDOWN_PAGE[0], root / PRIMER_EDIT[0]
        text, code = md.read_text(encoding="utf-8"), src.read_text(encoding="utf-8")
        if PRIMER_EDIT[1] not in code:
            raise RuntimeError(
                f"{PRIMER_EDIT[0]} no longer holds {PRIMER_EDIT[1]}: choose another printed value for the bench"
            )
        markdown_s, primer_s = [], []
        with mkdocs_serve(root, python, Path(tmp) / "serve.log") as (proc, base):
            first = wait_for(base + MARKDOWN_PAGE[1], proc=proc)
            for _ in range(repeats):
                marker = f"benchedit{uuid.uuid4().hex[:8]}"
                md.write_text(text + f"\n\n{marker}\n", encoding="utf-8")
                markdown_s.append(wait_for(base + MARKDOWN_PAGE[1], marker, proc))
                marker = f"cat{uuid.uuid4().hex[:8]}"
                src.write_text(code.replace(PRIMER_EDIT[1], f'"{marker}"', 1), encoding="utf-8")
                primer_s.append(wait_for(base + PRIMER_EDIT[2], marker, proc))
        log = (Path(tmp) / "serve.log").read_text(errors="replace")
    return {
        "first_build_s": first,
        "markdown_s": sorted(markdown_s),
        "primer_s": sorted(primer_s),
        "log_tail": log[-2000:],
    }

"""What a browser transfers for each page: Debian's chromium against a local server that gzips.

The server counts the bytes it actually sends (headers + gzipped body) for every request, so what
the page loads after `load` (the favicon; the search worker and search/search_index.json, should a
page start them before any search) is counted too, and what the browser takes from its cache is not.
It sends `Cache-Control: max-age=600`, as GitHub Pages does, so a second page reuses the shared assets.
"""

import gzip
import http.server
import mimetypes
import re
import sys
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import unquote, urlsplit

from primer_site.browser import CHROMIUM, DESKTOP, LAUNCH_ARGS  # the tests' offline launch flags

GZIP_TYPES = ("text/", "application/javascript", "application/json", "image/svg+xml", "application/xml")
GZIP_LEVEL = 6
QUIET_S = 0.6  # a visit ends when the server has seen no request for this long after `load`
ICON_S = 5.0  # a first visit also waits for the favicon, which Chromium asks for some time after `load`


class Log:
    """Every request the server answered: (seconds since the server started, path, bytes sent)."""

    def __init__(self):
        self.lock = threading.Lock()
        self.start = time.perf_counter()
        self.rows = []

    def add(self, path, sent):
        with self.lock:
            self.rows.append((time.perf_counter() - self.start, path, sent))

    def mark(self):
        with self.lock:
            return len(self.rows)

    def since(self, mark):
        with self.lock:
            return list(self.rows[mark:])


class _Counter:
    def __init__(self, raw):
        self.raw, self.sent = raw, 0

    def write(self, data):
        self.sent += len(data)
        return self.raw.write(data)

    def flush(self):
        return self.raw.flush()


class _GzipHandler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    root = None
    log = None
    bodies = {}  # (path, gzipped) -> bytes, shared: each file is compressed once

    def log_message(self, *args):
        pass

    def do_GET(self):
        path = unquote(urlsplit(self.path).path)
        raw, counter = self.wfile, _Counter(self.wfile)
        self.wfile = counter
        try:
            self._answer(path)
        finally:
            self.wfile = raw
        self.log.add(path, counter.sent)

    def _answer(self, path):
        file = (self.root / path.lstrip("/")).resolve()
        if file.is_dir():
            file = file / "index.html"
        if self.root not in file.parents or not file.is_file():
            body, ctype, zipped = b"not found", "text/plain", False
            self.send_response(404)
        else:
            ctype = mimetypes.guess_type(file.name)[0] or "application/octet-stream"
            zipped = ctype.startswith(GZIP_TYPES) and "gzip" in self.headers.get("Accept-Encoding", "")
            key = (file, zipped)
            if key not in self.bodies:
                raw = file.read_bytes()
                self.bodies[key] = gzip.compress(raw, GZIP_LEVEL, mtime=0) if zipped else raw
            body = self.bodies[key]
            self.send_response(200)
            self.send_header("Cache-Control", "max-age=600")
        self.send_header("Content-Type", ctype)
        if zipped:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)
        self.wfile.flush()


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # chromium drops idle keep-alive connections
            super().handle_error(request, client_address)


@contextmanager
def gzip_server(site):
    """Serve the built site on a free port of 127.0.0.1; yield (base URL, Log)."""
    log = Log()
    handler = type("Handler", (_GzipHandler,), {"root": Path(site).resolve(), "log": log, "bodies": {}})
    server = _Server(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}", log
    finally:
        server.shutdown()
        server.server_close()


def _visit(page, url, log, icon=False):
    """Load url and wait until the server has been quiet for QUIET_S (and, with icon, has sent the favicon or
    ICON_S have passed since `load`); return (requests, seconds at `load`)."""
    mark = log.mark()
    started = time.perf_counter() - log.start
    page.goto(url, wait_until="load")
    loaded = time.perf_counter() - log.start
    while True:
        rows = log.since(mark)
        last = rows[-1][0] if rows else started
        now = time.perf_counter() - log.start
        waiting_icon = icon and now - loaded < ICON_S and not any("favicon" in p for _, p, _ in rows)
        if now - last >= QUIET_S and not waiting_icon:
            break
        time.sleep(0.1)
    return [(t - started, p, n) for t, p, n in rows], loaded - started


def page_paths(site):
    """Return every page of the built site as a URL path ('/', '/en/05-mask/', ...), search and 404 left out."""
    site = Path(site)
    paths = []
    for f in sorted(site.rglob("index.html")):
        rel = f.parent.relative_to(site).as_posix()
        if rel.split("/")[0] not in ("search", "assets"):
            paths.append("/" if rel == "." else f"/{rel}/")
    return paths


def is_chapter(path):
    """Whether a URL path is a numbered chapter ('/05-mask/', '/en/05-mask/'), not a home, glossary or notebook page."""
    return re.fullmatch(r"/(en/)?\d\d-[^/]+/", path) is not None


def home(path):
    """Return the home page of the path's language: '/en/' or '/' (zh, the default)."""
    return "/en/" if path.startswith("/en/") else "/"


def measure(site, heaviest=None):
    """Visit every page in Chromium cold, then again with the shared assets cached; return the figures.

    First visit: the page alone in a new browser context (empty cache). Cached second visit: a reader
    who opened the heaviest chapter first and then clicks through the other pages of that language
    in order; the heaviest chapter itself is reached from its home page. Returns {"first": {path: bytes},
    "cached": {path: bytes}, "warmer": {path: page visited just before}, "requests": {path: [(s after
    navigation, url path, bytes)]} of first visits, "load_s": {path: s}, "heaviest": path,
    "after_heaviest": (path, bytes): the most any other chapter of its language costs after it}.
    """
    from playwright.sync_api import sync_playwright

    paths = page_paths(site)
    first, cached, warmers, requests, load_s = {}, {}, {}, {}, {}
    with gzip_server(site) as (base, log), sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)

        def browse(sequence, record, icon=False):
            ctx = browser.new_context(viewport=DESKTOP, service_workers="block")
            page = ctx.new_page()
            for before, path in zip([None] + sequence, sequence):
                rows, seconds = _visit(page, base + path, log, icon)
                record(path, before, rows, seconds)
            ctx.close()

        def cold(path, before, rows, seconds):
            requests[path], load_s[path], first[path] = rows, seconds, sum(n for _, _, n in rows)

        def warm(path, before, rows, seconds):
            if before is not None:
                warmers[path], cached[path] = before, sum(n for _, _, n in rows)

        try:
            for path in paths:
                browse([path], cold, icon=True)
            if heaviest is None:
                heaviest = max(filter(is_chapter, paths), key=first.get)
            for lang_home in ("/", "/en/"):
                mine = [p for p in paths if home(p) == lang_home and p != lang_home]
                twin = lang_home + heaviest.removeprefix(home(heaviest))
                browse([lang_home, twin], warm)
                browse([twin] + [p for p in mine if p != twin] + [lang_home], warm)
        finally:
            browser.close()
    others = {p: b for p, b in cached.items() if home(p) == home(heaviest) and p != heaviest and is_chapter(p)}
    after = max(others, key=others.get)
    return {
        "first": {p: first[p] for p in paths},
        "cached": {p: cached[p] for p in paths},
        "warmer": warmers,
        "requests": requests,
        "load_s": load_s,
        "heaviest": heaviest,
        "after_heaviest": (after, others[after]),
    }


def report(result):
    """Return Markdown: the per-page table and what the heaviest page loads, largest first."""
    lines = [
        "| page | first visit (KB gz) | cached second visit (KB gz) | visited just before |",
        "| --- | --- | --- | --- |",
    ]
    for path in result["first"]:
        lines.append(
            f"| {path} | {result['first'][path] / 1000:.0f} | {result['cached'][path] / 1000:.1f} "
            f"| {result['warmer'][path]} |"
        )
    heavy = result["heaviest"]
    lines += [
        "",
        f"What {heavy} loads on a first visit (`load` at {result['load_s'][heavy]:.2f} s), largest first:",
        "",
        "| request | KB gz | at (s) |",
        "| --- | --- | --- |",
    ]
    for t, path, n in sorted(result["requests"][heavy], key=lambda r: -r[2]):
        lines.append(f"| {path} | {n / 1000:.1f} | {t:.2f} |")
    return "\n".join(lines)


def search_index_note(result):
    """Return one sentence: when the search index loads and what it costs."""
    for path in result["first"]:
        for t, url, n in result["requests"][path]:
            if url.endswith("search_index.json"):
                return (
                    f"search/search_index.json: {n / 1000:.0f} KB gzipped, fetched by Material's search worker "
                    f"{t:.2f} s after navigation on {path} (`load` at {result['load_s'][path]:.2f} s): on every "
                    f"first visit, before any search; cached after that"
                )
    worker = any("/workers/search." in url for rows in result["requests"].values() for _, url, _ in rows)
    return "search/search_index.json: not fetched on any page load (only when the reader starts to search); " + (
        "the search worker's script is fetched at page load" if worker else "nor is the search worker's script"
    )


def mime_fix():
    mimetypes.add_type("application/javascript", ".js")
    mimetypes.add_type("application/json", ".json")
    mimetypes.add_type("font/woff2", ".woff2")


mime_fix()

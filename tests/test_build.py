"""The build's guard rails: each one is a way the site was seen to break when done the obvious way."""

import importlib
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml
from hook_loader import load_hook
from site_reader import ROOT

# Scratch builds run as `mkdocs serve` and a fork's build do: no site_url, no repo_url (the session's site has both).
ENV = {
    k: v
    for k, v in os.environ.items()
    if k not in ("PRIMER_CHECK_LINKS", "SOURCE_DATE_EPOCH", "PRIMER_SITE_URL", "PRIMER_REPO_URL")
}
ENV["NO_MKDOCS_2_WARNING"] = "1"
# Left out of scratch builds: the search index has no part in what they test, and jieba is 2 s of a 5 s build.
SEARCH_PLUGIN = re.compile(r"\n  - search:\n(?:      .*\n)+")


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)
_Loader.add_constructor("!ENV", lambda loader, node: loader.construct_sequence(node)[-1])  # its default


@pytest.fixture(scope="module")
def config():
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)


@pytest.fixture(scope="module")
def mkdocs_config():
    """The site's config as the hooks see it at pre-build: mkdocs.yml's python fence, markdown-exec's store."""
    from mkdocs.config import load_config

    saved = os.environ.get("MKDOCS_CONFIG_DIR")
    cfg = load_config(str(ROOT / "mkdocs.yml"))
    cfg.plugins["markdown-exec"].on_config(cfg)
    yield cfg
    if saved is None:
        os.environ.pop("MKDOCS_CONFIG_DIR", None)
    else:
        os.environ["MKDOCS_CONFIG_DIR"] = saved


def plugin(config, name):
    for entry in config["plugins"]:
        if isinstance(entry, dict) and name in entry:
            return entry[name]
    raise AssertionError(f"plugin {name} is not configured")


# What a page loads, by tag and attribute; a <link> loads only with one of these rels (canonical, alternate: names).
LOADS = re.compile(
    r"<(?:script|img|iframe|audio|video|source|embed)\b[^>]*?\s(?:src|srcset|data-src)=[\"']?([^\"'\s>]+)"
    r"|<link\b(?=[^>]*\brel=[\"']?(?:stylesheet|icon|preload|modulepreload|manifest|prefetch)\b)[^>]*?\shref=[\"']?([^\"'\s>]+)"
    r"|url\(\s*[\"']?([^\"')\s]+)|@import\s+[\"']([^\"']+)",
    re.I,
)


def outside(text):
    """Return each URL a page or stylesheet loads from another host (absolute or protocol-relative)."""
    urls = [next(u for u in m.groups() if u) for m in LOADS.finditer(text)]
    return [u for u in urls if re.match(r"(?:[a-z][\w+.-]*:)?//", u, re.I) and not u.startswith("data:")]


def test_the_built_site_loads_nothing_from_another_host(site):
    """No CDN, no web font: every page, stylesheet and notebook page loads only the site's own files."""
    found = {
        path.relative_to(site).as_posix(): outside(path.read_text(encoding="utf-8", errors="replace"))
        for path in [*site.rglob("*.html"), *site.rglob("*.css")]
    }
    assert sum(1 for _ in site.rglob("*.html")) > 50
    assert not {k: v for k, v in found.items() if v}


def test_the_outside_check_finds_what_a_page_would_load_from_another_host():
    planted = (
        '<script src="https://cdn.example/x.js"></script><link rel="stylesheet" href="//fonts.example/f.css">'
        '<link rel="canonical" href="https://example.org/a/"><img src="../assets/i.png"><a href="https://ok.example">'
        "<style>@font-face{src:url(https://fonts.example/f.woff2)}</style>"
    )
    assert outside(planted) == ["https://cdn.example/x.js", "//fonts.example/f.css", "https://fonts.example/f.woff2"]


def test_serve_watches_primer_and_reimports_only_what_changed(config):
    assert "primer" in config["watch"]
    hook, site = load_hook("fresh_primer"), SimpleNamespace(config_file_path=str(ROOT / "mkdocs.yml"))
    import primer.masks  # noqa: F401

    hook.LAST.clear()  # a first build: every primer module is imported afresh
    hook.on_pre_build(site)
    assert not [m for m in sys.modules if m == "primer" or m.startswith("primer.")]

    kept = importlib.import_module("primer.masks")  # imported afresh, as the build's first block does
    hook.on_pre_build(site)  # nothing edited since: the module and what it holds stay
    assert sys.modules["primer.masks"] is kept


# ---- the zh/en parity rule: the hook's regex finds exactly the blocks markdown-exec runs

FENCES = {  # opening line -> the id markdown-exec runs the block under, or None if it shows the code only
    '```python exec="1" id="a"': "a",
    '```python exec="yes" id="a"': "a",
    '```python exec="TRUE" id="a"': "a",
    '```python id="a" exec="on"': "a",
    '~~~~python exec="1" id="a"': "a",
    '```python exec="1"': "",
    '```{.python exec="1" id="a"}': "",  # brace form: markdown-exec gets no id
    '```python exec="no"': None,
    '```python exec="0"': None,
    "```python": None,
    '```pycon exec="1" id="a"': None,  # markdown-exec is configured for python only
}


def run_for_real(mkdocs_config, text):
    """Convert with the site's extensions and markdown-exec itself, executing the blocks."""
    import markdown

    md = markdown.Markdown(extensions=mkdocs_config.markdown_extensions, extension_configs=mkdocs_config.mdx_configs)
    return md.convert(text)


@pytest.mark.parametrize("opening", FENCES)
def test_the_hook_counts_a_block_exactly_when_markdown_exec_runs_it(mkdocs_config, opening):
    fence = opening.split("python")[0].split("pycon")[0].strip("{.")
    text = f'# t\n\n!!! note\n\n    {opening}\n    print("RAN" + "-HERE")\n    {fence}\n'  # inside an admonition
    found = load_hook("parity").exec_block_ids(text)
    ran = "RAN-HERE" in run_for_real(mkdocs_config, text)
    assert found == ([] if FENCES[opening] is None else [FENCES[opening]])
    assert ran == bool(found)


def two_languages(tmp_path, zh, en):
    for lang, body in (("zh", zh), ("en", en)):
        if body is not None:
            (tmp_path / lang).mkdir()
            (tmp_path / lang / "page.md").write_text(body, encoding="utf-8")


def parity_warnings(docs, caplog):
    """Run the hook's parity check over a docs folder, with no build, and return its warnings."""
    caplog.clear()
    with caplog.at_level("WARNING", logger="mkdocs.hooks.parity"):
        load_hook("parity").check_parity(docs)
    return [r.getMessage() for r in caplog.records]


BLOCK = '```python exec="{flag}" id="{id}"\nprint(1)\n```\n'


@pytest.mark.parametrize(
    "zh, en, expected",
    [
        (BLOCK.format(flag="1", id="x"), BLOCK.format(flag="yes", id="x"), None),
        (BLOCK.format(flag="yes", id="x"), "```python\nprint(1)\n```\n", "zh and en run different exec blocks"),
        (BLOCK.format(flag="1", id="x"), BLOCK.format(flag="1", id="y"), "zh and en run different exec blocks"),
        (BLOCK.format(flag="1", id="x") * 2, BLOCK.format(flag="1", id="x") * 2, "exec block ids repeat"),
        ('```python exec="1"\nprint(1)\n```\n',) * 2 + ("has no id=",),
        (None, BLOCK.format(flag="1", id="x"), "page.md: exists only in en"),
        (BLOCK.format(flag="1", id="x"), None, "page.md: exists only in zh"),
    ],
)
def test_the_parity_rule_reads_both_languages_from_the_sources(tmp_path, caplog, zh, en, expected):
    two_languages(tmp_path, zh, en)
    warnings = parity_warnings(tmp_path, caplog)
    if expected is None:
        assert warnings == []
    else:
        assert any(expected in w for w in warnings), warnings


def test_the_site_itself_is_in_parity(caplog):
    assert parity_warnings(ROOT / "docs", caplog) == []


# ---- scratch builds: the real config and hooks over a two-page site


def scratch_site(tmp_path, zh_body, en_body=None, committed=None, pages=(), env=()):
    """Build a scratch site of index.md (and pages: {(lang, name): body}) in tmp_path with the real config and hooks;
    return the process."""
    for part in ("hooks", "overrides"):
        shutil.copytree(ROOT / part, tmp_path / part)
    shutil.copytree(ROOT / "docs" / "assets", tmp_path / "docs" / "assets")
    (tmp_path / "docs" / "snippets").mkdir()
    (tmp_path / "primer").mkdir()  # only watched; the installed primer is imported
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text, searches = SEARCH_PLUGIN.subn("\n", text.split("\nnav:")[0] + "\n")  # the real nav names absent pages
    assert searches == 1, "mkdocs.yml's search plugin entry has changed shape: update SEARCH_PLUGIN"
    (tmp_path / "mkdocs.yml").write_text(text, encoding="utf-8")
    for lang, body in (("zh", zh_body), ("en", en_body)):
        if body is not None:
            (tmp_path / "docs" / lang).mkdir(parents=True)
            (tmp_path / "docs" / lang / "index.md").write_text(textwrap.dedent(body), encoding="utf-8")
    for (lang, name), body in dict(pages).items():
        (tmp_path / "docs" / lang / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "docs" / lang / name).write_text(textwrap.dedent(body), encoding="utf-8")
    if committed:  # a git checkout whose last commit is dated `committed`
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
        dated = dict(ENV, GIT_AUTHOR_DATE=committed, GIT_COMMITTER_DATE=committed)
        for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "t"]):
            subprocess.run(git + args, cwd=tmp_path, env=dated, check=True, capture_output=True)
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "out")],
        cwd=tmp_path,
        env=dict(ENV, **dict(env)),
        capture_output=True,
        text=True,
        timeout=300,
    )


GOOD = """
# t

```python exec="1" id="fine"
print("ok")
```
"""

FAILING = """
# t

```python exec="1" id="boom-block"
raise RuntimeError("boom")
```
"""


_BUILDS = {}


def shared_build(name, *args, **kwargs):
    """Build a scratch site once per test process for all the tests that read it; return {returncode, stderr, out}."""
    if name not in _BUILDS:
        import tempfile

        where = Path(tempfile.mkdtemp(prefix=f"primer-scratch-{name}-"))
        proc = scratch_site(where, *args, **kwargs)
        _BUILDS[name] = {"returncode": proc.returncode, "stderr": proc.stderr, "out": str(where / "out")}
    return _BUILDS[name]


LINKS = """
# t

## Here

[same page](#here) [other page](extra.md#there)
"""
EXTRA = {(lang, "extra.md"): "# e\n\n## There\n" for lang in ("zh", "en")}


MATH = "\nLet $x^2 \\le y$ hold:\n\n$$\n\\frac{a}{b}\n$$\n"


def working_build():
    """One scratch site that must build: an exec block, math, links to an anchor here and on another page, and a
    git checkout whose last commit is dated 2001-09-09."""
    body = LINKS + GOOD.replace("# t", "") + MATH
    return shared_build("working", body, body, pages=EXTRA, committed="2001-09-09T01:46:40+00:00")


def test_scratch_site_builds_checks_its_links_and_writes_no_sitemap_without_a_site_url():
    """Strict without a repo_url (edit_uri is dropped, else every page warns); links to #here and extra.md#there pass
    the check; without a site URL no sitemap is written."""
    build = working_build()
    assert build["returncode"] == 0, build["stderr"][-3000:]
    out = Path(build["out"])
    for page in ("index.html", "en/index.html"):
        html = (out / page).read_text(encoding="utf-8")
        assert "<p>ok</p>" in html  # the exec block ran
        assert 'rel="edit"' not in html and 'rel="canonical"' not in html
    # No site_url: no sitemap (its addresses would start with "None"), in neither language.
    assert not list(out.rglob("sitemap.xml*"))


def failures_build():
    """One scratch site that fails twice, in page order: a block that raises (a warning: the build goes on), then a
    formula KaTeX cannot parse (an error: the build stops there)."""
    bad_math = GOOD + "\n$$\n\\frac{1}{\n$$\n"
    return shared_build(
        "failures",
        GOOD,
        GOOD,
        pages={
            ("zh", "a-block.md"): FAILING,
            ("en", "a-block.md"): FAILING,
            ("zh", "b-math.md"): bad_math,
            ("en", "b-math.md"): bad_math,
        },
    )


def test_a_failing_exec_block_fails_the_build_and_names_itself():
    build = failures_build()
    assert warned(build, "Execution of python code block 'boom-block' exited with errors"), build["stderr"][-3000:]


def test_math_is_mathml_and_a_formula_katex_cannot_parse_fails_the_build_naming_it():
    build = working_build()
    assert build["returncode"] == 0, build["stderr"][-3000:]
    page = (Path(build["out"]) / "en" / "index.html").read_text(encoding="utf-8")
    assert '<span class="arithmatex"><math>' in page and '<div class="arithmatex"><math display="block">' in page
    build = failures_build()
    assert build["returncode"] != 0
    assert re.search(r"^ERROR\b.*b-math\.md: tex: KaTeX cannot render '\\\\frac\{1\}\{'", build["stderr"], re.M), build[
        "stderr"
    ][-3000:]


def parity_build():
    """One scratch site that breaks the zh/en parity rule once on each of its pages, the home page included (it is
    not translated); each breach is a warning, so the strict build fails, and the warning names the page."""
    without_id = GOOD.replace(' id="fine"', "")
    return shared_build(
        "parity",
        GOOD,
        None,
        pages={
            ("zh", "only.md"): GOOD,  # a page in one language only
            ("zh", "ids.md"): GOOD,
            ("en", "ids.md"): GOOD.replace('id="fine"', 'id="other"'),  # other exec blocks
            ("zh", "noid.md"): without_id,
            ("en", "noid.md"): without_id,  # an exec block without id
            ("zh", "shown.md"): GOOD.replace('exec="1"', 'exec="yes"'),  # run in zh, only shown in en
            ("en", "shown.md"): GOOD.replace(' exec="1" id="fine"', ""),
        },
    )


def warned(build, message):
    """Whether the build failed and logged message as a WARNING (which --strict turns into the failure)."""
    return build["returncode"] != 0 and re.search(r"^WARNING\b.*" + re.escape(message), build["stderr"], re.M)


@pytest.mark.parametrize(
    "message",
    [
        "only.md: exists only in zh",
        "ids.md: zh and en run different exec blocks",
        "zh/noid.md: an exec block has no id=",
        "en/noid.md: an exec block has no id=",
        "shown.md: zh and en run different exec blocks",
        "Could not find a homepage for locale 'en'",
    ],
)  # the home page is not translated
def test_a_parity_breach_fails_the_build_naming_the_page(message):
    build = parity_build()
    assert warned(build, message), build["stderr"][-3000:]


def test_a_missing_snippet_fails_the_build(tmp_path):
    body = '# t\n\n```python exec="1" id="s"\n--8<-- "nowhere/missing.py"\n```\n'
    proc = scratch_site(tmp_path, body, body)
    assert proc.returncode != 0


BROKEN = {  # a broken link of each kind, each to its own missing anchor
    "markdown": "[x](#nowhere-md)",  # Markdown link to a missing anchor
    "markdown-other-page": "[x](extra.md#nowhere-other)",  # ... on another page
    "raw-html": '<a href="#nowhere-raw">x</a>',  # raw HTML, which MkDocs does not validate
    # printed by a block
    "printed": '```python exec="1" id="out"\nprint(\'<a href="extra/#nowhere-printed">x</a>\')\n```',
}


@pytest.mark.parametrize("kind", BROKEN)
def test_a_broken_anchor_fails_the_build(kind):
    broken = "\n\n".join(BROKEN.values())
    build = shared_build("broken-anchors", LINKS, LINKS + "\n" + broken + "\n", pages=EXTRA)
    anchor = re.search(r"#nowhere-[a-z]+", BROKEN[kind]).group()
    assert build["returncode"] != 0
    assert re.search(r"htmlproofer.*" + re.escape(anchor) + r"\b", build["stderr"]), build["stderr"][-3000:]

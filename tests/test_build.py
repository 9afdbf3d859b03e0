"""The build's guard rails: each one is a way the site was seen to break when done the obvious way."""

import os
import shutil
import subprocess
import sys
import textwrap

import pytest
import yaml

from conftest import ROOT

ENV = dict(os.environ, NO_MKDOCS_2_WARNING="1")


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


@pytest.fixture(scope="module")
def config():
    return yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_Loader)


def plugin(config, name):
    for entry in config["plugins"]:
        if isinstance(entry, dict) and name in entry:
            return entry[name]
    raise AssertionError(f"plugin {name} is not configured")


def test_i18n_folder_layout_zh_default_and_no_fallback(config):
    i18n = plugin(config, "i18n")
    assert i18n["docs_structure"] == "folder"
    assert i18n["fallback_to_default"] is False
    default = [lang["locale"] for lang in i18n["languages"] if lang.get("default")]
    assert default == ["zh"]


def test_offline_settings(config):
    assert config["theme"]["font"] is False
    assert plugin(config, "markdown-exec")["languages"] == ["python"]
    assert "navigation.instant" not in config["theme"]["features"]
    for url in config["extra_javascript"] + config["extra_css"]:
        assert not url.startswith(("http:", "https:", "//")), url


def test_reader_comforts(config):
    features = config["theme"]["features"]
    assert "content.code.copy" in features
    assert len(config["theme"]["palette"]) == 2 and all("toggle" in p for p in config["theme"]["palette"])
    names = [e if isinstance(e, str) else next(iter(e)) for e in config["markdown_extensions"]]
    for ext in ("admonition", "pymdownx.details", "pymdownx.snippets", "pymdownx.arithmatex"):
        assert ext in names


def test_chinese_search_separator(config):
    sep = plugin(config, "search")["separator"]
    assert "\\u200b" in sep and "，" in sep and "。" in sep
    import jieba  # noqa: F401  (material segments Chinese only when jieba is importable)


def test_serve_watches_primer_and_reloads_it(config):
    assert "primer" in config["watch"]
    sys.path.insert(0, str(ROOT / "hooks"))
    try:
        import primer_build
    finally:
        sys.path.pop(0)
    import primer.masks  # noqa: F401
    primer_build.on_pre_build(config={})
    assert not [m for m in sys.modules if m == "primer" or m.startswith("primer.")]
    import primer  # noqa: F401  (re-import for the tests that follow)


# ---- scratch builds: the real config and hooks over a two-page site

def scratch_site(tmp_path, zh_body, en_body=None, extra_zh=None):
    for part in ("hooks", "overrides"):
        shutil.copytree(ROOT / part, tmp_path / part)
    shutil.copytree(ROOT / "docs" / "assets", tmp_path / "docs" / "assets")
    (tmp_path / "docs" / "snippets").mkdir()
    (tmp_path / "primer").mkdir()  # only watched; the installed primer is imported
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    text = text.split("\nnav:")[0] + "\n"  # the real nav names pages this scratch site lacks
    (tmp_path / "mkdocs.yml").write_text(text, encoding="utf-8")
    for lang, body in (("zh", zh_body), ("en", en_body)):
        if body is not None:
            (tmp_path / "docs" / lang).mkdir(parents=True)
            (tmp_path / "docs" / lang / "index.md").write_text(textwrap.dedent(body), encoding="utf-8")
    if extra_zh:
        (tmp_path / "docs" / "zh" / "extra.md").write_text(extra_zh, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "out")],
                          cwd=tmp_path, env=ENV, capture_output=True, text=True, timeout=300)


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


def test_scratch_site_builds(tmp_path):
    proc = scratch_site(tmp_path, GOOD, GOOD)
    assert proc.returncode == 0, proc.stderr[-3000:]


def test_a_failing_exec_block_fails_the_build_and_names_itself(tmp_path):
    proc = scratch_site(tmp_path, FAILING, FAILING)
    assert proc.returncode != 0
    assert "boom-block" in proc.stderr


def test_a_missing_translation_fails_the_build(tmp_path):
    proc = scratch_site(tmp_path, GOOD, None)
    assert proc.returncode != 0


def test_a_page_in_one_language_only_fails_the_build(tmp_path):
    proc = scratch_site(tmp_path, GOOD, GOOD, extra_zh=GOOD)
    assert proc.returncode != 0
    assert "extra.md: exists only in zh" in proc.stderr


def test_different_exec_blocks_in_the_two_languages_fail_the_build(tmp_path):
    proc = scratch_site(tmp_path, GOOD, GOOD.replace('id="fine"', 'id="other"'))
    assert proc.returncode != 0
    assert "zh and en run different exec blocks" in proc.stderr


def test_an_exec_block_without_id_fails_the_build(tmp_path):
    proc = scratch_site(tmp_path, GOOD.replace(' id="fine"', ""), GOOD.replace(' id="fine"', ""))
    assert proc.returncode != 0
    assert "has no id=" in proc.stderr


def test_a_missing_snippet_fails_the_build(tmp_path):
    body = '# t\n\n```python exec="1" id="s"\n--8<-- "nowhere/missing.py"\n```\n'
    proc = scratch_site(tmp_path, body, body)
    assert proc.returncode != 0

"""The page memo of `mkdocs serve`: a page is converted again exactly when one of its inputs changed, and a page
taken from the memo is the page a conversion gives. Real MkDocs pages over a small site; hooks/primer_build.py."""

import logging
from types import SimpleNamespace

import pytest
from mkdocs.config import load_config
from mkdocs.structure.files import get_files
from mkdocs.structure.pages import Page

from test_exec_cache import hook

PAGES = {
    "index.md": "# Home\n\n## Here\n\nSee [there](other.md#there) and [here](#here).\n\n--8<-- \"note.md\"\n",
    "other.md": "# Other\n\n## There\n\nBack [home](index.md).\n",
}


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """A two-page site with a snippet, a primer module and a hooks folder; conversions counted."""
    (tmp_path / "primer").mkdir()
    (tmp_path / "primer" / "answer.py").write_text("VALUE = 1\n")
    (tmp_path / "hooks").mkdir()
    (tmp_path / "hooks" / "a_hook.py").write_text("# a hook\n")
    (tmp_path / "docs" / "snippets").mkdir(parents=True)
    (tmp_path / "docs" / "snippets" / "note.md").write_text("A note from a snippet.\n")
    for name, text in PAGES.items():
        (tmp_path / "docs" / name).write_text(text)
    (tmp_path / "mkdocs.yml").write_text(
        "site_name: t\nexclude_docs: snippets/\nmarkdown_extensions:\n  - toc:\n      permalink: true\n"
        f"  - pymdownx.snippets:\n      base_path: [{tmp_path / 'docs' / 'snippets'}]\n      check_paths: true\n")
    monkeypatch.delenv(hook.CACHE_ENV, raising=False)
    monkeypatch.setenv("PRIMER_LANG", "en")
    monkeypatch.setattr(hook.primer_sources, "primer_dir", lambda default: tmp_path / "primer")
    converted = []
    real_render = Page.render

    def render(page, config, files):   # what the memo calls when it converts: counted
        converted.append(page.file.src_uri)
        return real_render(page, config, files)

    monkeypatch.setattr(Page, "render", render)   # restored after the test, memo and all
    mx = hook._python_formatter()
    monkeypatch.setattr(mx, "_run_python", mx._run_python)
    formatters = hook._formatters()
    for name in ("python", "py"):
        monkeypatch.setitem(formatters, name, formatters[name])
    return SimpleNamespace(root=tmp_path, converted=converted)


@pytest.fixture
def served(tree):
    """The tree with the memo installed, as `mkdocs serve` installs it."""
    hook.on_startup(command="serve", dirty=False)
    return tree


def pre_build(served):
    """A fresh config and what `mkdocs serve` does before it converts pages; return (config, files)."""
    config = load_config(str(served.root / "mkdocs.yml"), site_dir=str(served.root / "site"))
    cache = hook.active_cache()
    cache.configure(config)
    cache.start_build()
    hook.active_page_memo().start_build(cache, served.root / "hooks")
    return config, get_files(config)


def convert(config, files, file):
    """Read one page and convert it, as a build does; return the page."""
    page = Page(None, file, config)
    page.read_source(config)
    page.render(config, files)
    return page


def rebuild(served):
    """One rebuild as `mkdocs serve` does it: pre-build, then every page read and converted."""
    config, files = pre_build(served)
    pages = {file.src_uri: convert(config, files, file) for file in files.documentation_pages()}
    return SimpleNamespace(pages=pages, files=files)


def seen(page):
    """Everything a conversion sets on a page, in comparable form."""
    links = {f.src_uri: dict(v) for f, v in (page.links_to_anchors or {}).items()}
    toc = [(a.title, a.id, a.level, [(c.title, c.id) for c in a.children]) for a in page.toc]
    return page.content, toc, page._title_from_render, set(page.present_anchor_ids), links


def test_an_unchanged_page_is_not_converted_again_and_reads_the_same(served):
    first = rebuild(served)
    assert sorted(served.converted) == ["index.md", "other.md"]
    second = rebuild(served)
    assert sorted(served.converted) == ["index.md", "other.md"], "the second rebuild converted a page again"
    for name in PAGES:
        assert seen(second.pages[name]) == seen(first.pages[name]), name
    assert "A note from a snippet." in second.pages["index.md"].content
    linked = second.pages["index.md"].links_to_anchors
    assert {f.src_uri for f in linked} == {"index.md", "other.md"}
    assert all(f is second.files.get_file_from_path(f.src_uri) for f in linked)   # this build's Files, not the last one's


EDITS = ["the page", "a snippet", "primer", "a hook", "mkdocs.yml", "the language", "another page added"]


@pytest.mark.parametrize("edit", EDITS)
def test_every_input_of_a_page_converts_it_again(served, monkeypatch, edit):
    rebuild(served)
    served.converted.clear()
    root = served.root
    if edit == "the page":
        (root / "docs" / "index.md").write_text(PAGES["index.md"] + "\nAn edited line.\n")
    elif edit == "a snippet":
        (root / "docs" / "snippets" / "note.md").write_text("An edited note.\n")
    elif edit == "primer":
        (root / "primer" / "answer.py").write_text("VALUE = 2\n")
    elif edit == "a hook":
        (root / "hooks" / "a_hook.py").write_text("# an edited hook\n")
    elif edit == "mkdocs.yml":
        (root / "mkdocs.yml").write_text((root / "mkdocs.yml").read_text() + "use_directory_urls: false\n")
    elif edit == "the language":
        monkeypatch.setenv("PRIMER_LANG", "zh")
    else:
        (root / "docs" / "new.md").write_text("# New\n")
    after = rebuild(served)
    assert "index.md" in served.converted, f"an edit to {edit} must convert index.md again"
    if edit == "the page":
        assert served.converted == ["index.md"] and "An edited line." in after.pages["index.md"].content
    if edit == "a snippet":
        assert "An edited note." in after.pages["index.md"].content
    if edit == "mkdocs.yml":
        assert 'href="other.html#there"' in after.pages["index.md"].content


def test_a_page_taken_from_the_memo_still_has_its_links_checked(served, caplog):
    rebuild(served)
    (served.root / "docs" / "other.md").write_text("# Other\n\nNo anchor here any more.\n")
    after = rebuild(served)
    assert served.converted.count("index.md") == 1, "index.md itself did not change"
    with caplog.at_level(logging.INFO, logger="mkdocs"):
        after.pages["index.md"].validate_anchor_links(files=after.files, log_level=logging.WARNING)
    assert "'there'" in caplog.text or "#there" in caplog.text


def test_a_page_whose_conversion_warns_is_converted_and_warns_on_every_rebuild(served, caplog):
    (served.root / "docs" / "other.md").write_text("# Other\n\n[gone](missing.md)\n")
    for _ in range(2):
        caplog.clear()
        with caplog.at_level(logging.INFO, logger="mkdocs"):
            rebuild(served)
        assert "missing.md" in caplog.text
    assert served.converted.count("other.md") == 2 and served.converted.count("index.md") == 1


def test_a_source_edited_during_a_build_keeps_nothing(served):
    config, files = pre_build(served)
    (served.root / "primer" / "answer.py").write_text("VALUE = 22\n")   # the edit lands while pages convert
    convert(config, files, files.get_file_from_path("index.md"))
    assert hook.active_page_memo().entries == {}


def test_cache_off_converts_every_page_every_time(served, monkeypatch):
    monkeypatch.setenv(hook.CACHE_ENV, "off")
    rebuild(served)
    rebuild(served)
    assert sorted(served.converted) == ["index.md", "index.md", "other.md", "other.md"]


def test_a_build_converts_every_page_every_time(tree):
    hook.on_startup(command="build", dirty=False)   # what `mkdocs build` runs: no memo is installed for it
    assert hook.active_page_memo() is None
    config = load_config(str(tree.root / "mkdocs.yml"), site_dir=str(tree.root / "site"))
    files = get_files(config)
    for _ in range(2):
        convert(config, files, files.get_file_from_path("index.md"))
    assert tree.converted == ["index.md", "index.md"]

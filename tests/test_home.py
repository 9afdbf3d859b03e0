"""The home page: its contents list every chapter by its title; its reading guide promises only what chapters hold."""

import re

import pytest
from site_reader import DOCS, LANGS

NUMPY = {"zh": "十几行 numpy", "en": "A dozen lines of numpy"}
SUMMARY = {"zh": "小结", "en": "Summary"}
CHAPTERS = sorted(p.name for p in (DOCS / "zh").glob("[0-9][0-9]-*.md"))


def headings(text):
    return [m.group(2).strip() for m in re.finditer(r"^(#{1,6}) (.+)$", text, re.M)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", CHAPTERS)
def test_every_chapter_keeps_the_guides_promise(lang, name):
    found = headings((DOCS / lang / name).read_text(encoding="utf-8"))
    assert NUMPY[lang] in found, f"{lang}/{name} has no '{NUMPY[lang]}' section, which the home page promises"
    assert SUMMARY[lang] in found, f"{lang}/{name} has no '{SUMMARY[lang]}' section, which the home page promises"


def sections(text):
    """Return the titles of a page's level-2 sections, attribute lists ({#id}) left out."""
    return [re.sub(r"\s*\{[^}]*\}$", "", m.group(1).strip()) for m in re.finditer(r"^## (.+)$", text, re.M)]


def numpy_section_placed(titles, lang):
    """Return whether the numpy section is a section of its own (##), the last before the summary."""
    return (
        NUMPY[lang] in titles
        and SUMMARY[lang] in titles
        and titles.index(SUMMARY[lang]) == titles.index(NUMPY[lang]) + 1
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", CHAPTERS)
def test_the_numpy_section_is_the_last_before_the_summary(lang, name):
    titles = sections((DOCS / lang / name).read_text(encoding="utf-8"))
    assert numpy_section_placed(titles, lang), f"{lang}/{name}: '## {NUMPY[lang]}' must come right before the summary"


def test_numpy_placement_check_finds_a_misplaced_section():
    text = "## 十几行 numpy\n\n## 别的 {#x}\n\n## 小结\n"
    assert not numpy_section_placed(sections(text), "zh")
    assert numpy_section_placed(sections("## 别的\n## 十几行 numpy {#numpy}\n## 小结"), "zh")


@pytest.mark.parametrize("lang", LANGS)
def test_the_contents_table_lists_every_chapter_by_its_title(lang):
    home = (DOCS / lang / "index.md").read_text(encoding="utf-8")
    links = dict(
        (target, text) for text, target in re.findall(r"\[([^\]]+)\]\((\d\d-[^)]+\.md)\)", home.split("## ")[1])
    )
    assert sorted(links) == CHAPTERS
    for name, text in links.items():
        title = (DOCS / lang / name).read_text(encoding="utf-8").split("\n", 1)[0].lstrip("# ").strip()
        assert text == title, f"{lang}/index.md calls {name} '{text}', its title is '{title}'"


@pytest.mark.parametrize("lang", LANGS)
def test_the_interview_line_points_to_chapter_9(lang):
    home = (DOCS / lang / "index.md").read_text(encoding="utf-8")
    line = next(x for x in home.splitlines() if x.startswith("- ") and ("面试" in x or "interview" in x))
    assert "(09-choosing.md)" in line

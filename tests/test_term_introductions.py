"""A term is introduced once: bold, and glossed in the other language, only in the chapter the term list names."""

import re

import pytest
from prose import MASK, is_footnote_definition, mask  # tools/ is on pytest's pythonpath (pyproject.toml)
from site_reader import DOCS, LANGS, page_names
from term_list import terms

BOLD = re.compile(r"\*\*([^*\n]+?)\*\*")
LIST_LABEL = re.compile(r"^\s*(?:[-*]|\d+\.) \*\*[^*\n]+\*\*(?:（[^）\n]*）| \([^)\n]*\))?[：:]")  # "- **标签**：正文"


def bold_terms(text, lang):
    """Return [(line, term key)] for every bold span of a page's prose that is a listed term (a list item's label,
    "- **因果掩码**：...", is a lead-in, not a term's introduction)."""
    by_word = {(t[lang] if lang == "zh" else t[lang].lower()): t["key"] for t in terms()}
    found = []
    for n, (line, masked) in enumerate(zip(text.split("\n"), mask(text).split("\n")), 1):
        if is_footnote_definition(line):
            continue
        label = LIST_LABEL.match(line)
        for m in BOLD.finditer(line):
            if label and m.start() < label.end():  # the label only: a bold term later in the item still counts
                continue
            if masked[m.start(1) : m.end(1)] != m.group(1):  # bold code or math is not a term
                continue
            word = m.group(1).strip() if lang == "zh" else m.group(1).strip().lower()
            if word in by_word:
                found.append((n, by_word[word]))
    return found


def misplaced(pages, lang, find, mark, fix):  # find(text, lang) -> [(line, key)]
    """Return [message] for each term find marks (bold, glossed) outside its chapter, or twice in it."""
    chapter = {t["key"]: t["chapter"] for t in terms()}
    found, seen = [], {}
    for name, text in pages.items():
        for n, key in find(text, lang):
            if name != chapter[key]:
                found.append(f"docs/{lang}/{name}:{n}: {key} is {mark} here, but introduced in {chapter[key]}: {fix}")
            elif key in seen:
                found.append(f"docs/{lang}/{name}:{n}: {key} is {mark} again (first at line {seen[key]}): {fix}")
            else:
                seen[key] = n
    return found


def misplaced_bold(pages, lang):
    """Return [message] for terms bolded outside the chapter that introduces them, or more than once there."""
    return misplaced(pages, lang, bold_terms, "bold", "write it plain")


@pytest.mark.parametrize("lang", LANGS)
def test_a_term_is_bold_only_where_it_is_introduced(lang):
    """Bold marks a term's introduction: once, in the chapter the glossary names (its `chapter:`)."""
    pages = {name: (DOCS / lang / name).read_text(encoding="utf-8") for name in page_names()}
    found = misplaced_bold(pages, lang)
    assert not found, "\n".join(found)


def test_bold_check_finds_planted_bold():
    pages = {
        "05-mask.md": "这是**因果掩码**（causal mask）。\n- **因果掩码**：列表标签不算\n再说一次**因果掩码**。",
        "07-decoder.md": "第 5 章的**因果掩码**（causal mask）\n`**因果掩码**` 在代码里不算\n"
        "1. **解码**：再用**因果掩码**",
    }
    assert [m.split(": ", 1)[0] for m in misplaced_bold(pages, "zh")] == [
        "docs/zh/05-mask.md:3",
        "docs/zh/07-decoder.md:1",
        "docs/zh/07-decoder.md:3",
    ]


GLOSS = {"zh": re.compile(r"（([^（）\n]*)）"), "en": re.compile(r" \(([^()\n]*)\)")}  # 术语（gloss）, term (术语)
GLOSS_PARTS = re.compile(r"[/、，,；;]")  # (查询/键/值), （prefill，一次读入整段）


def ends_with_term(before, word, lang):
    """Return whether the prose before a parenthesis ends with the term (an English one possibly plural)."""
    if lang == "zh":
        return before.endswith(word)
    forms = [re.escape(word) + "(?:s|es)?"] + ([re.escape(word[:-1]) + "ies"] if word.endswith("y") else [])
    return re.search(r"(?<![\w-])(?:" + "|".join(forms) + ")$", before, re.IGNORECASE) is not None


def glossed_terms(text, lang):
    """Return [(line, term key)] for every listed term glossed in a page's prose: written with its other-language
    form in the parentheses right after it, alone or among other words (教师强制（teacher forcing）, key and value
    (键/值)). Bold or a link may close between the term and its gloss."""
    other = "en" if lang == "zh" else "zh"
    found = []
    for n, (line, masked) in enumerate(zip(text.split("\n"), mask(text).split("\n")), 1):
        if is_footnote_definition(line):
            continue
        for m in GLOSS[lang].finditer(masked):
            before = masked[: m.start()].rstrip("*]" + MASK)
            parts = {part.strip(" []" + MASK).lower() for part in GLOSS_PARTS.split(m.group(1))}
            for term in terms():
                gloss = term[other].lower()
                glosses = {gloss, gloss + "s", gloss + "es"} if other == "en" else {gloss}
                if parts & glosses and ends_with_term(before, term[lang], lang):
                    found.append((n, term["key"]))
    return found


def misplaced_glosses(pages, lang):
    """Return [message] for terms glossed outside the chapter that introduces them, or more than once there."""
    return misplaced(pages, lang, glossed_terms, "glossed", "drop the gloss")


@pytest.mark.parametrize("lang", LANGS)
def test_a_term_is_glossed_only_where_it_is_introduced(lang):
    """A gloss (the other language's word in parentheses) marks a term's introduction: once, in its chapter."""
    pages = {name: (DOCS / lang / name).read_text(encoding="utf-8") for name in page_names()}
    found = misplaced_glosses(pages, lang)
    assert not found, "\n".join(found)


def test_gloss_check_finds_planted_glosses():
    zh = {
        "04-self-cross-heads.md": "自注意力（self-attention）不是注意力的注释",
        "05-mask.md": "这是**因果掩码**（causal mask）。\n再说一次因果掩码（causal mask）。",
        "07-decoder.md": (
            "第 5 章的因果掩码（causal mask）\n"
            "[因果掩码](05-mask.md)（causal mask，见第 5 章）\n"
            "读键（keys）\n"
            "`因果掩码（causal mask）` 在代码里不算\n"
            "因果掩码（见第 5 章）不算注释"
        ),
    }
    assert [m.split(": ", 1)[0] for m in misplaced_glosses(zh, "zh")] == [
        "docs/zh/05-mask.md:2",
        "docs/zh/07-decoder.md:1",
        "docs/zh/07-decoder.md:2",
        "docs/zh/07-decoder.md:3",
    ]
    en = {
        "07-decoder.md": (
            "the **Causal mask** (因果掩码)\n"
            "the query, key and value (查询/键/值)\n"
            "two queries (查询)\n"
            "[^x]: a source's encoder (编码器)"
        ),
        "04-self-cross-heads.md": "self-attention (自注意力) is not attention's gloss",
    }
    assert [m.split(": ", 1)[0].rsplit(":", 1)[1] + " " + m.split()[1] for m in misplaced_glosses(en, "en")] == [
        "1 causal-mask",
        "2 value",
        "3 query",
    ]

"""One term per concept: the term list is complete in both languages, and no page uses a variant it forbids."""

import json
import re
import sys
from functools import lru_cache

import pytest
import yaml

from conftest import DOCS, LANGS, ROOT, page_names

sys.path.insert(0, str(ROOT / "tools"))
from prose import mask  # noqa: E402

TERMS_FILE = DOCS / "snippets" / "glossary" / "terms.yml"
FIELDS = ("key", "zh", "en", "def_zh", "def_en", "chapter")


@lru_cache(maxsize=None)
def terms():
    return yaml.safe_load(TERMS_FILE.read_text(encoding="utf-8"))["terms"]


def variants(text, lang):
    """Return [(line, variant found, term to use)] for every forbidden variant in the prose of text."""
    masked = mask(text)
    found = []
    for term in terms():
        for pattern in term.get(f"forbid_{lang}", []):
            for m in re.finditer(pattern, masked):
                found.append((masked.count("\n", 0, m.start()) + 1, m.group(0), term[lang]))
    return sorted(found)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", page_names())
def test_page_uses_listed_terms(lang, name):
    found = variants((DOCS / lang / name).read_text(encoding="utf-8"), lang)
    assert not found, f"docs/{lang}/{name} (term list: {TERMS_FILE.relative_to(ROOT)}):\n" + \
        "\n".join(f"  line {n}: {v!r} -> use {use!r}" for n, v, use in found)


def strings(node):
    """Yield every string of a nested JSON value."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from strings(v)


@pytest.mark.parametrize("lang", LANGS)
def test_figure_labels_use_listed_terms(lang):
    """What the figures print onto a page (primer/labels/<lang>.json) follows the list too."""
    table = json.loads((ROOT / "primer" / "labels" / f"{lang}.json").read_text(encoding="utf-8"))
    found = [(text, v, use) for text in strings(table) for _, v, use in variants(text, lang)]
    assert not found, "\n".join(f"  {text!r}: {v!r} -> use {use!r}" for text, v, use in found)


def test_every_entry_has_every_field_in_both_languages():
    for i, term in enumerate(terms()):
        missing = [f for f in FIELDS if not isinstance(term.get(f), str) or not term[f].strip()]
        assert not missing, f"entry {i} ({term.get('key')}) lacks {missing}"
        extra = set(term) - set(FIELDS) - {"forbid_zh", "forbid_en", "tooltip"}
        assert not extra, f"{term['key']}: unknown fields {extra}"
        assert re.search(r"[\u4e00-\u9fff]", term["def_zh"]), f"{term['key']}: def_zh is not Chinese"
        assert not re.search(r"[\u4e00-\u9fff]", term["def_en"] + term["en"]), f"{term['key']}: en side holds Chinese"
        assert "\n" not in term["def_zh"] + term["def_en"], f"{term['key']}: a definition is one line"


def test_keys_and_terms_are_unique():
    for field in ("key", "zh", "en"):
        values = [t[field] for t in terms()]
        assert len(values) == len(set(values)), f"repeated {field}: {sorted({v for v in values if values.count(v) > 1})}"


def test_chapter_exists_in_both_languages():
    for term in terms():
        for lang in LANGS:
            assert (DOCS / lang / term["chapter"]).is_file(), f"{term['key']}: no docs/{lang}/{term['chapter']}"


def test_forbidden_variants_are_patterns_that_spare_the_term_and_the_definitions():
    for term in terms():
        for lang in LANGS:
            for pattern in term.get(f"forbid_{lang}", []):
                rx = re.compile(pattern)
                assert not rx.search(term[lang]), f"{term['key']}: {pattern!r} forbids the chosen term itself"
                for other in terms():
                    assert not rx.search(other[lang]), f"{term['key']}: {pattern!r} forbids the term {other[lang]!r}"
                    assert not rx.search(other[f"def_{lang}"]), \
                        f"{term['key']}: the definition of {other['key']} uses the variant {pattern!r}"


@pytest.mark.parametrize("text, variant", [
    ("今天的只有解码器", "只有解码器"),
    ("BERT 是只编码器模型", "只编码器"),
    ("两个栈各 6 层", "栈"),
    ("送进同一叠块", "一叠"),
    ("BERT 的段落嵌入", "段落嵌入"),
    ("缓存放在内存里", "内存"),
    ("把输入写进提示里", "提示"),
    ("每一步的隐状态", "隐状态"),
])
def test_variant_finder_finds(text, variant):
    assert [v for _, v, _ in variants(text, "zh")] == [variant]


@pytest.mark.parametrize("text", [
    "只有编码器-解码器有编码器输出可读",   # 'only the encoder-decoder ...'
    "权重放在主机内存里",
    "写进提示词",
    "`只有解码器` 在代码里不算",
    "叠加两张表",
])
def test_variant_finder_spares(text):
    assert variants(text, "zh") == []

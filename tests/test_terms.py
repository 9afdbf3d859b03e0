"""One term per concept: the term list is complete in both languages, no page uses a variant it forbids, and each term
is used in the chapter that introduces it."""

import json
import re

import pytest
import yaml
from prose import is_footnote_definition, mask  # tools/ is on pytest's pythonpath (pyproject.toml)
from site_reader import DOCS, LANGS, ROOT, generated_texts, html_path, page_names, strings
from term_list import TERMS_FILE, terms, usage

FIELDS = ("key", "zh", "en", "def_zh", "def_en", "chapter")


def variants(text, lang):
    """Return [(line, variant found, term to use)] for every forbidden variant in the prose of text.

    Variants are matched regardless of case ("Teacher forcing" at a sentence's start is still the variant), and the
    words a formula holds in \\text{...} count as prose. A footnote definition may quote an English source word for
    word, so a variant made of ASCII letters alone is not looked for there; a Chinese variant is.
    """
    masked = mask(text, math_words=True)
    footnote_lines = {n for n, line in enumerate(text.split("\n"), 1) if is_footnote_definition(line)}
    found = []
    for term in terms() + usage():
        for pattern in term.get(f"forbid_{lang}", []):
            for m in re.finditer(pattern, masked, re.IGNORECASE):
                line = masked.count("\n", 0, m.start()) + 1
                if line in footnote_lines and m.group(0).isascii():
                    continue
                found.append((line, m.group(0), term[lang]))
        if lang == "en":  # an English page glosses a term in Chinese: the gloss is the list's zh term too
            for pattern in term.get("forbid_zh", []):
                for m in re.finditer(pattern, masked, re.IGNORECASE):
                    if (
                        re.search(r"[\u4e00-\u9fff]", m.group(0))
                        and masked.count("\n", 0, m.start()) + 1 not in footnote_lines
                    ):
                        found.append((masked.count("\n", 0, m.start()) + 1, m.group(0), term["zh"]))
    return sorted(found)


def prose_lines(text):
    """Return the masked prose of a page without its footnote definitions (they quote sources)."""
    return "\n".join(m for line, m in zip(text.split("\n"), mask(text).split("\n")) if not is_footnote_definition(line))


@pytest.mark.parametrize("lang", LANGS)
def test_every_term_is_used_in_the_chapter_that_introduces_it(lang):
    """A term's tooltip fires where the concept is taught only if the chapter writes the term as the list spells it."""
    missing = []
    for term in terms():
        prose = prose_lines((DOCS / lang / term["chapter"]).read_text(encoding="utf-8"))
        word = term[lang]
        if not (word in prose if lang == "zh" else word.lower() in prose.lower()):
            missing.append(f"{term['key']}: {word!r} not in docs/{lang}/{term['chapter']}")
    assert not missing, "\n".join(missing)


def test_usage_entries_have_their_fields():
    for entry in usage():
        assert {"key", "zh", "en"} <= set(entry) <= {"key", "zh", "en", "forbid_zh", "forbid_en"}, entry


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", page_names())
def test_page_uses_listed_terms(lang, name):
    found = variants((DOCS / lang / name).read_text(encoding="utf-8"), lang)
    assert not found, f"docs/{lang}/{name} (term list: {TERMS_FILE.relative_to(ROOT)}):\n" + "\n".join(
        f"  line {n}: {v!r} -> use {use!r}" for n, v, use in found
    )


def label_variants(table, lang):
    """Return [(label, variant, term to use)] for every forbidden variant in a label table (primer/labels/*.json)."""
    return [(text, v, use) for text in strings(table) for _, v, use in variants(text, lang)]


@pytest.mark.parametrize("lang", LANGS)
def test_figure_labels_use_listed_terms(lang):
    """What the figures print onto a page (primer/labels/<lang>.json) follows the list too."""
    table = json.loads((ROOT / "primer" / "labels" / f"{lang}.json").read_text(encoding="utf-8"))
    found = label_variants(table, lang)
    assert not found, "\n".join(f"  {text!r}: {v!r} -> use {use!r}" for text, v, use in found)


def glossary_variants(entries, lang):
    """Return [(key, field, variant, term to use)] for every forbidden variant in the glossary's own text."""
    found = []
    for entry in entries:
        for field in (lang, f"def_{lang}"):
            found += [(entry["key"], field, v, use) for _, v, use in variants(entry[field], lang) if use != entry[lang]]
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_definitions_use_listed_terms(lang):
    """The definitions the glossary and the tooltips show follow the list (a term's own entry may name itself)."""
    found = glossary_variants(terms(), lang)
    assert not found, "\n".join(f"  {key}.{field}: {v!r} -> use {use!r}" for key, field, v, use in found)


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
        assert len(values) == len(set(values)), (
            f"repeated {field}: {sorted({v for v in values if values.count(v) > 1})}"
        )


def test_chapter_exists_in_both_languages():
    for term in terms():
        for lang in LANGS:
            assert (DOCS / lang / term["chapter"]).is_file(), f"{term['key']}: no docs/{lang}/{term['chapter']}"


def test_forbidden_variants_are_patterns_that_spare_the_term_and_the_definitions():
    for term in terms() + usage():
        for lang in LANGS:
            for pattern in term.get(f"forbid_{lang}", []):
                rx = re.compile(pattern, re.IGNORECASE)
                assert not rx.search(term[lang]), f"{term['key']}: {pattern!r} forbids the chosen term itself"
                for other in terms():
                    assert not rx.search(other[lang]), f"{term['key']}: {pattern!r} forbids the term {other[lang]!r}"
                    assert not rx.search(other[f"def_{lang}"]), (
                        f"{term['key']}: the definition of {other['key']} uses the variant {pattern!r}"
                    )


@pytest.mark.parametrize(
    "text, variant",
    [
        ("今天的只有解码器", "只有解码器"),
        ("BERT 是只编码器模型", "只编码器"),
        ("两个栈各 6 层", "栈"),
        ("送进同一叠块", "一叠"),
        ("BERT 的段落嵌入", "段落嵌入"),
        ("缓存放在内存里", "内存"),
        ("把输入写进提示里", "提示"),
        ("每一步的隐状态", "隐状态"),
        ("沿时间反向传播的梯度", "沿时间反向传播"),
        ("训练时用 teacher forcing", "teacher forcing"),
        ("在 prefill 阶段", "prefill"),
        ("每个子层后接 LayerNorm", "LayerNorm"),
        ("输出嵌入错后一位", "错后一位"),
        ("一张打分矩阵", "打分矩阵"),
        ("编码器用全开的掩码", "全开的掩码"),
        ("把句子凑成一个 batch", "batch"),
        ("读到下一个字", "下一个字"),
        ("先查词向量", "词向量"),
        ("交叉注意力读 memory", "memory"),
        ("本书只用一种约定", "本书"),
        ("RNN 变换器", "变换器"),
    ],
)
def test_variant_finder_finds(text, variant):
    assert [v for _, v, _ in variants(text, "zh")] == [variant]


@pytest.mark.parametrize(
    "text, variant",
    [
        ("Teacher forcing 训练时喂标准答案", "Teacher forcing"),
        ("公式 $\\text{KV 头数} \\times \\text{模型宽度}$ 里", "模型宽度"),
        ("$$\n\\text{每头宽度} = d / h\n$$", "每头宽"),
    ],
)
def test_variant_finder_finds_capitals_and_words_in_math(text, variant):
    assert [v for _, v, _ in variants(text, "zh")] == [variant]


def test_variant_finder_finds_capitalised_english_variants():
    assert [v for _, v, _ in variants("Layer norm after each sub-layer", "en")] == ["Layer norm"]


def test_variant_finder_spares_math_symbols():
    assert variants("$\\mathrm{LayerNorm}(x)$ 与\n$$\n\\mathrm{LayerNorm}(x)\n$$", "zh") == []


def test_label_check_finds_a_planted_variant():
    assert label_variants({"sec": {"k": ["ok", "Teacher forcing 的输出"]}}, "zh") == [
        ("Teacher forcing 的输出", "Teacher forcing", "教师强制")
    ]


def test_glossary_check_finds_a_planted_variant():
    planted = [{"key": "x", "zh": "某术语", "def_zh": "把模型宽度切成几份", "en": "x", "def_en": "Split the x."}]
    assert glossary_variants(planted, "zh") == [("x", "def_zh", "模型宽度", "隐藏维度")]


def test_variant_finder_reads_the_chinese_glosses_of_english_pages():
    assert [v for _, v, _ in variants("backpropagation through time (BPTT, 沿时间反向传播)", "en")] == [
        "沿时间反向传播"
    ]


@pytest.mark.parametrize(
    "text",
    [
        "只有编码器-解码器有编码器输出可读",  # 'only the encoder-decoder ...'
        "权重放在主机内存里",
        "写进提示词",
        "`只有解码器` 在代码里不算",
        "叠加两张表",
        "教师强制（teacher forcing）",
        "预填充（prefill，一次读入整段）",
        "长短期记忆网络（long short-term memory）",
        "交错位置",
        '[^x]: Devlin et al. quote: "the output embedding is offset by one position"',
    ],
)
def test_variant_finder_spares(text):
    assert variants(text, "zh") == []


def notebook_prose(node, lang, key=""):
    """Yield every string a notebook spec (notebooks/*.yml) holds for lang."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from notebook_prose(v, lang, k)
    elif isinstance(node, list):
        for v in node:
            yield from notebook_prose(v, lang, key)
    elif isinstance(node, str) and key == lang:
        yield node


@pytest.mark.parametrize("lang", LANGS)
def test_notebook_prose_uses_listed_terms(lang):
    """The notebooks' prose in both languages (notebooks/*.yml, written into docs/*/notebooks) follows the list too."""
    found = []
    for spec in sorted((ROOT / "notebooks").glob("*.yml")):
        for text in notebook_prose(yaml.safe_load(spec.read_text(encoding="utf-8")), lang):
            found += [(spec.name, v, use) for _, v, use in variants(text, lang)]
    assert not found, "\n".join(f"  {name}: {v!r} -> use {use!r}" for name, v, use in found)


def generated_variants(html, lang):
    """Return [(text, variant, term to use)] for the forbidden variants in what a built page's blocks printed onto it
    (table cells, figure titles, labels and annotations; tests/test_typography.py reads them)."""
    return [(text, v, use) for text in generated_texts(html) for _, v, use in variants(text, lang)]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", [n for n in page_names() if n != "glossary.md"])
def test_built_page_tables_and_figures_use_listed_terms(site, lang, name):
    """The tables and figures a page's blocks print follow the list, as its prose does. (The glossary page is left
    out: its table prints the other language's term beside each one, and its definitions are checked above.)"""
    found = generated_variants(html_path(site, lang, name).read_text(encoding="utf-8"), lang)
    assert not found, f"{lang} {name}:\n" + "\n".join(f"  {text!r}: {v!r} -> use {use!r}" for text, v, use in found)


def test_generated_text_check_finds_planted_variants():
    figure = '[{"name":"随机（1 / 源句长度）"}],{"title":{"text":"语法本身的损失"}}'
    html = (
        "<table><tr><th>子层</th></tr><tr><td>稠密层偏置</td></tr></table>"
        f'<script>Plotly.newPlot("fig-x", {figure}, {{}})</script>'
    )
    assert [v for _, v, _ in generated_variants(html, "zh")] == ["稠密层", "语法"]

"""The glossary page and the hover tooltips: both languages, both from the one term list."""

import html as htmllib
import re

import markdown
import pytest
import yaml
from hook_loader import load_hook
from site_reader import DOCS, LANGS, html_path, table_rows

from primer.figures.glossary import glossary_table

terms_hook = load_hook("terms")

DATA = yaml.safe_load((DOCS / "snippets" / "glossary" / "terms.yml").read_text(encoding="utf-8"))
TERMS = DATA["terms"]
ABBR = re.compile(r'<abbr title="([^"]*)">(.*?)</abbr>', re.S)


def abbrs(page_html):
    """Return the set of (term, definition) tooltips on a built page (a title is HTML for Material: unescape twice)."""
    return {
        (htmllib.unescape(text), htmllib.unescape(htmllib.unescape(title))) for title, text in ABBR.findall(page_html)
    }


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_table_has_every_term_with_its_chapter(lang):
    rows = glossary_table(TERMS, DATA["glossary"], lang=lang).strip().split("\n")[2:]
    assert len(rows) == len(TERMS)
    for row, t in zip(rows, TERMS):
        assert f"**{t[lang]}**" in row and f"(../{t['chapter'][:-3]}/)" in row
        assert htmllib.unescape(row.split(" | ")[2]) == t[f"def_{lang}"]  # '|' and '<' escaped, not lost


@pytest.mark.parametrize("lang", LANGS)
def test_built_glossary_page_lists_every_term(read_page, lang):
    rows = table_rows(read_page(lang, "glossary.md"))
    shown = {r[0]: r for r in rows[1:]}
    for t in TERMS:
        other = "en" if lang == "zh" else "zh"
        assert shown[t[lang]][1] == t[other] and shown[t[lang]][2] == htmllib.unescape(t[f"def_{lang}"])


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_is_in_the_nav(read_page, lang):
    page = read_page(lang, "index.md")
    assert re.search(r'<a href="[^"]*glossary/"[^>]*>\s*(?:<span[^>]*>\s*)?(术语表|Glossary)', page)


@pytest.mark.parametrize(
    "lang, name, key",
    [
        ("zh", "05-mask.md", "causal-mask"),
        ("en", "05-mask.md", "causal-mask"),
        ("zh", "10-kv-cache.md", "kv-cache"),
        ("en", "10-kv-cache.md", "kv-cache"),
    ],
)
def test_built_page_carries_the_tooltip_of_a_term_it_uses(site, lang, name, key):
    term = next(t for t in TERMS if t["key"] == key)
    assert (term[lang], term[f"def_{lang}"]) in abbrs(html_path(site, lang, name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGS)
def test_tooltips_are_in_the_page_language_only(site, lang):
    mine = {(t[lang], t[f"def_{lang}"]) for t in TERMS}
    for page in sorted((DOCS / lang).glob("*.md")):
        found = abbrs(html_path(site, lang, page.name).read_text(encoding="utf-8"))
        assert found <= mine, f"{lang}/{page.name}: tooltips not from the {lang} list: {sorted(found - mine)[:3]}"


def test_no_tooltip_inside_code_or_math(site):
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r"<code>[^<]*<abbr|arithmatex\">[^<]*<abbr", text), page


def convert(text, titles):
    md = markdown.Markdown(
        extensions=["abbr", "pymdownx.arithmatex", terms_hook.TermExtension(titles)],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    return md.convert(text)


def test_hook_marks_a_term_inside_chinese_text_but_not_in_code_or_math():
    out = convert("句中的因果掩码和 `因果掩码` 与 $因果掩码$。", {"因果掩码": "定义"})
    assert out.count("<abbr") == 1 and '<abbr title="定义">因果掩码</abbr>' in out


def test_hook_prefers_the_longest_term_and_respects_latin_words():
    out = convert("仅解码器的解码器; decoders and decoder.", {"解码器": "A", "仅解码器": "B", "decoder": "C"})
    assert '<abbr title="B">仅解码器</abbr>的<abbr title="A">解码器</abbr>' in out
    assert out.count('title="C"') == 1  # 'decoders' is another word


def test_only_the_page_itself_gets_terms_not_a_converter_started_for_a_blocks_output(monkeypatch):
    monkeypatch.setitem(terms_hook.PAGE, "titles", {"解码器": "A"})
    page = markdown.Markdown(extensions=[terms_hook.TermExtension()])
    assert page.convert(f"解码器\n\n{terms_hook.MARKER}\n") == '<p><abbr title="A">解码器</abbr></p>'
    nested = markdown.Markdown(extensions=[terms_hook.TermExtension()])  # as markdown-exec's, for printed output
    assert nested.convert("解码器") == "<p>解码器</p>"


@pytest.mark.parametrize("lang", LANGS)
def test_hook_gives_its_languages_terms(lang):
    titles = terms_hook.term_titles(lang, str(DOCS))
    assert len(titles) == sum(t.get("tooltip", True) for t in TERMS)
    assert all(term.strip() and title.strip() for term, title in titles.items())

"""MkDocs hook: hover tooltips from the term list (docs/snippets/glossary/terms.yml) in the page's language.

Each term in a page's text becomes `<abbr title="definition">term</abbr>`, the markup of Python-Markdown's
abbr extension, and Material's content.tooltips shows the definition on hover. Material puts the title into the
tooltip as HTML, so the title is the definition escaped as HTML text (material_title): "<bos>" shows as written.
abbr itself wants a word boundary around a term, which never falls between two Han characters; so this hook registers
a tree processor of its own (Python-Markdown's documented extension API) that only refuses a Latin letter or
digit on either side of a term. Code and math are AtomicStrings and stay untouched. The page's own
Markdown ends with MARKER, which tells its converter (and not the ones markdown-exec starts for a
block's output) to mark the terms.
"""

import functools
import html
import re
import xml.etree.ElementTree as etree
from pathlib import Path

import yaml
from markdown.extensions import Extension
from markdown.preprocessors import Preprocessor
from markdown.treeprocessors import Treeprocessor
from markdown.util import AtomicString

from primer_site.site_lang import build_language

TERMS = Path("snippets") / "glossary" / "terms.yml"  # under docs_dir
NOT_ON = {"glossary.md"}  # the glossary shows every definition already
MARKER = "<!-- primer-terms -->"  # the last line of a page's Markdown that gets tooltips; removed before parsing
PAGE = {}  # "titles": {term: definition} of the page being converted; set by on_page_markdown


@functools.cache
def term_titles(lang, docs_dir="docs"):
    """Return {term: definition} of one language, for every term with a tooltip ({} with no list)."""
    path = Path(docs_dir) / TERMS
    if not path.is_file():  # a site without the list (the build tests' scratch sites): no tooltips
        return {}
    terms = yaml.safe_load(path.read_text(encoding="utf-8"))["terms"]
    titles = {t[lang].strip(): t["def_" + lang].strip() for t in terms if t.get("tooltip", True)}
    return {term: title for term, title in titles.items() if term and title}


@functools.cache
def term_pattern(terms):
    """Return the regex of terms (a tuple), longest first (仅解码器 before 解码器), beside no Latin letter or digit."""
    keys = sorted(terms, key=len, reverse=True)
    return re.compile(r"(?<![A-Za-z0-9_])(?:{})(?![A-Za-z0-9_])".format("|".join(map(re.escape, keys))))


def material_title(definition):
    """Return a definition as the title attribute's value Material's tooltip wants (tests/test_figure_fallbacks.py).

    Material sets the title as the tooltip's innerHTML, so the browser must read "&lt;bos&gt;" from the attribute:
    the definition escaped as HTML text, then escaped again for the attribute, because Python-Markdown's serializer
    leaves an "&" that starts an entity as it is (it escapes only quotes, <, > and a bare &).
    """
    return html.escape(html.escape(definition, quote=False), quote=False)


class TermTreeprocessor(Treeprocessor):
    """Wrap each term of the page's text in <abbr title="definition">, inside Chinese text too."""

    def __init__(self, md, titles=None):
        super().__init__(md)
        self.titles = titles  # {term: definition}; set by TermMarker when the text ends with MARKER

    def run(self, root):
        if self.titles:
            self.mark(root, None, term_pattern(tuple(self.titles)), self.titles)

    def mark(self, el, parent, pattern, titles):
        """Wrap the terms in el's text, in its children, and in its tail (text that follows el inside parent)."""
        for child in reversed(el):
            self.mark(child, el, pattern, titles)
        if el.text and not isinstance(el.text, AtomicString):
            el.text = self.wrap(el.text, pattern, titles, lambda node: el.insert(0, node))
        if parent is not None and el.tail and not isinstance(el.tail, AtomicString):
            at = list(parent).index(el) + 1
            el.tail = self.wrap(el.tail, pattern, titles, lambda node: parent.insert(at, node))

    @staticmethod
    def wrap(text, pattern, titles, insert):
        """Insert an <abbr> for each term in text, last first; return the text before the first term."""
        for m in reversed(list(pattern.finditer(text))):
            node = etree.Element("abbr", {"title": material_title(titles[m.group(0)])})
            node.text, node.tail = AtomicString(m.group(0)), text[m.end() :]
            insert(node)
            text = text[: m.start()]
        return text


class TermMarker(Preprocessor):
    """Take MARKER off the text's end and hand the page's terms to the tree processor; no MARKER, no terms."""

    def __init__(self, md, processor):
        super().__init__(md)
        self.processor = processor

    def run(self, lines):
        self.processor.titles = (PAGE.get("titles") or {}) if MARKER in lines else {}
        return [line for line in lines if line != MARKER]


class TermExtension(Extension):
    """Register TermTreeprocessor where abbr's runs (priority 7: after the inline patterns and prettify)."""

    def __init__(self, titles=None, **kwargs):
        super().__init__(**kwargs)
        self.titles = titles  # given: every text gets these terms (the tests); None: pages ending with MARKER

    def extendMarkdown(self, md):
        processor = TermTreeprocessor(md, self.titles)
        md.treeprocessors.register(processor, "primer_terms", 7)
        if self.titles is None:
            md.preprocessors.register(TermMarker(md, processor), "primer_terms", 35)  # before snippets (32)


def on_config(config):
    """Add the term extension to the Markdown extensions, once."""
    if not any(isinstance(e, TermExtension) for e in config.markdown_extensions):
        config.markdown_extensions.append(TermExtension())
    return config


def on_page_markdown(markdown, page, config, files):
    """Mark the page for the term processor and give it the page language's terms (none on the glossary)."""
    PAGE["titles"] = {}
    if page.file.src_uri.split("/")[-1] in NOT_ON:
        return markdown
    PAGE["titles"] = term_titles(build_language(config), config.docs_dir)
    return markdown.rstrip("\n") + "\n\n" + MARKER + "\n"

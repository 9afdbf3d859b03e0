"""MkDocs hook: hover tooltips from the term list (docs/snippets/glossary/terms.yml) in the page's language.

Each page gets one abbreviation line per term, `*[因果掩码]: 定义`, and Material's content.tooltips
shows the definition on hover. Python-Markdown's abbr wants a word boundary around a term, which never
falls between two Han characters, so its tree processor is swapped for one that only refuses a Latin
letter or digit on either side. Code and math are AtomicStrings and stay untouched.
"""

import functools
import re
from pathlib import Path

import yaml
from markdown.extensions import Extension
from markdown.extensions.abbr import AbbrTreeprocessor

TERMS = Path("snippets") / "glossary" / "terms.yml"  # under docs_dir
NOT_ON = {"glossary.md"}  # the glossary shows every definition already


@functools.cache
def abbreviations(lang, docs_dir="docs"):
    """Return the '*[term]: definition' lines of one language, for every term with a tooltip ('' with no list)."""
    path = Path(docs_dir) / TERMS
    if not path.is_file():  # a site without the list (the build tests' scratch sites): no tooltips
        return ""
    terms = yaml.safe_load(path.read_text(encoding="utf-8"))["terms"]
    return "\n".join(f"*[{t[lang]}]: {t['def_' + lang]}" for t in terms if t.get("tooltip", True))


class _TermAbbr(AbbrTreeprocessor):
    """Mark terms inside Chinese text too: a term may not touch a Latin letter or digit, nothing more."""

    def run(self, root):
        if not self.abbrs:
            return
        keys = sorted(self.abbrs, key=len, reverse=True)  # longest first: 仅解码器 before 解码器
        self.RE = re.compile(r"(?<![A-Za-z0-9_])(?:%s)(?![A-Za-z0-9_])" % "|".join(map(re.escape, keys)))
        self.iter_element(root)


class _TermAbbrExtension(Extension):
    def extendMarkdown(self, md):
        md.treeprocessors.register(_TermAbbr(md, md.treeprocessors["abbr"].abbrs), "abbr", 7)


def on_config(config):
    """Load after abbr, so that its tree processor is the one replaced."""
    if not any(isinstance(e, _TermAbbrExtension) for e in config.markdown_extensions):
        config.markdown_extensions.append(_TermAbbrExtension())
    return config


def on_page_markdown(markdown, page, config, files):
    """Append the page language's abbreviations."""
    if page.file.src_uri.split("/")[-1] in NOT_ON:
        return markdown
    lang = getattr(page.file, "locale", None) or "zh"
    return markdown.rstrip("\n") + "\n\n" + abbreviations(lang, config.docs_dir) + "\n"

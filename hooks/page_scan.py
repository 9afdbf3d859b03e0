"""Read a built page's anchors and links in one regular-expression pass, as html.parser reads them.

htmlproofer checks every link of every page: it builds a BeautifulSoup tree of each page's body for
its links and of each whole page for its anchors, about 3 s of a build's single-threaded tail. Only
start tags matter for both, so this finds them with one expression and reads their attributes with
html.parser's own attribute syntax (imported, so it follows the Python version). The text between
tags, comments, declarations and the raw text of <script> and <style> are skipped as html.parser
skips them. tests/test_site.py checks both results against htmlproofer's BeautifulSoup reading on
every built page; tests/test_build.py on tricky HTML.
"""

import re
from html import unescape
from html.parser import attrfind_tolerant, tagfind_tolerant

_QUOTED_ATTRS = r"""(?:[^>"']|"[^"]*"|'[^']*')*"""   # a '>' inside a quoted value does not end the tag
_MARKUP = re.compile(rf"""
    <!--.*?(?:-->|\Z)                                           # comment
  | <(?P<raw>script|style)(?=[\s/>])(?P<raw_attrs>{_QUOTED_ATTRS})>.*?(?:</(?P=raw)\s*>|\Z)   # raw text: no tags in it
  | <[!?][^>]*>                                                 # doctype, declaration, processing instruction
  | </(?P<end>[a-zA-Z][^\s/>]*)[^>]*>                           # end tag
  | <(?P<tag>[a-zA-Z][^\t\n\r\f />\x00]*)(?P<attrs>{_QUOTED_ATTRS})>   # start tag
""", re.S | re.I | re.X)
LINKS = {"a": "href", "img": "src"}   # what htmlproofer checks: <a href>, <img src>


def _attributes(tag_text):
    """Return {name: value} of a start tag's text ('<tag attrs', no '>'), read as html.parser and bs4 read it."""
    k = tagfind_tolerant.match(tag_text, 1).end()
    attrs = {}
    while k < len(tag_text):
        m = attrfind_tolerant.match(tag_text, k)
        if not m:
            break
        name, rest, value = m.group(1, 2, 3)
        if not rest:
            value = None
        elif value[:1] == "'" == value[-1:] or value[:1] == '"' == value[-1:]:
            value = value[1:-1]
        attrs[name.lower()] = unescape(value) if value else ""   # bs4 gives a bare attribute the value ""
        k = m.end()
    return attrs


def scan(html):
    """Return (anchors, links) of a page: ids and <a name>s outside any <template>; {tag: values of LINKS[tag]}."""
    anchors, links, depth = set(), {tag: set() for tag in LINKS}, 0   # depth: <template>s we are in; their content is inert
    for m in _MARKUP.finditer(html):
        tag, attrs = m.group("raw", "raw_attrs") if m.group("raw") else m.group("tag", "attrs")
        if tag is None:
            if depth and (m.group("end") or "").lower() == "template":
                depth -= 1
            continue
        tag = tag.lower()
        if tag not in LINKS and tag != "template" and "id" not in attrs.lower():
            continue   # most tags: nothing to read
        found = _attributes("<" + tag + attrs)
        if depth == 0:
            anchors.update(found[k] for k in ("id", "name") if k in found and (k == "id" or tag == "a"))
        if LINKS.get(tag) in found:
            links[tag].add(found[LINKS[tag]])
        if tag == "template" and not attrs.rstrip().endswith("/"):
            depth += 1
    return frozenset(anchors), links


class Links:
    """What htmlproofer asks of its BeautifulSoup of a page's links: find_all('a', href=True), find_all('img', src=True)."""

    def __init__(self, markup):
        self.links = scan(str(markup))[1]

    def find_all(self, name, **attrs):
        (attr, wanted), = attrs.items()
        if LINKS.get(name) != attr or wanted is not True:
            raise NotImplementedError(f"page_scan.Links reads only {LINKS}, not find_all({name!r}, {attr}={wanted!r})")
        return [{attr: value} for value in sorted(self.links[name])]

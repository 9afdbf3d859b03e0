"""Footnotes: every reference has a definition and vice versa, zh and en cite the same sources by the same ids."""

import re

import pytest
from site_reader import DOCS, LANGS, page_names

FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
DEFINITION = re.compile(r"^\[\^([^\]\s]+)\]:\s?(.*)$")
REFERENCE = re.compile(r"\[\^([^\]\s]+)\]")
ARXIV = re.compile(r"(?:arXiv:\s?|arxiv\.org/(?:abs|pdf)/)(\d{4}\.\d{4,5})(?:v\d+)?", re.I)
DOI = re.compile(r"(?:doi:\s?|doi\.org/)(10\.\d{4,9}/[^\s,;)\]]+)", re.I)
URL = re.compile(r"https?://[^\s)>\]]+")


def footnotes(text):
    """Return (labels referenced, {label: definition text}) of a Markdown page, code blocks left out."""
    refs, defs, current, fence = set(), {}, None, None
    for line in text.split("\n"):
        m = FENCE.match(line)
        if fence or m:
            if m and (fence is None or m.group(1).startswith(fence)):
                fence = None if fence else m.group(1)[:3]
            current = None
            continue
        line = re.sub(r"(`+).+?\1", "", line)
        d = DEFINITION.match(line)
        if d:
            assert d.group(1) not in defs, f"footnote [^{d.group(1)}] defined twice"
            current, defs[d.group(1)] = d.group(1), d.group(2)
            refs.update(REFERENCE.findall(d.group(2)))
        elif current and (line.startswith("    ") or not line.strip()):
            defs[current] += " " + line.strip()
        else:
            current = None
            refs.update(REFERENCE.findall(line))
    return refs, defs


def identifiers(definition):
    """Return the stable identifiers a definition cites: arXiv ids, DOIs, and other URLs."""
    ids = {"arXiv:" + a for a in ARXIV.findall(definition)}
    ids |= {"doi:" + d.rstrip(".").lower() for d in DOI.findall(definition)}
    for url in URL.findall(definition):
        if not ARXIV.search(url) and not DOI.search(url):
            ids.add(url.rstrip(".,;:"))
    return ids


def read(lang, name):
    return footnotes((DOCS / lang / name).read_text(encoding="utf-8"))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", page_names())
def test_references_and_definitions_match(lang, name):
    refs, defs = read(lang, name)
    assert not refs - set(defs), f"docs/{lang}/{name}: references without a definition: {sorted(refs - set(defs))}"
    assert not set(defs) - refs, f"docs/{lang}/{name}: definitions never referenced: {sorted(set(defs) - refs)}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", page_names())
def test_every_definition_has_a_stable_identifier(lang, name):
    _, defs = read(lang, name)
    bare = sorted(label for label, text in defs.items() if not identifiers(text))
    assert not bare, f"docs/{lang}/{name}: footnotes without an arXiv id, DOI or URL: {bare}"


@pytest.mark.parametrize("name", page_names())
def test_zh_and_en_cite_the_same_sources(name):
    (_, zh), (_, en) = read("zh", name), read("en", name)
    assert set(zh) == set(en), f"{name}: only zh {sorted(set(zh) - set(en))}, only en {sorted(set(en) - set(zh))}"
    differ = {
        label: (sorted(identifiers(zh[label])), sorted(identifiers(en[label])))
        for label in zh
        if identifiers(zh[label]) != identifiers(en[label])
    }
    assert not differ, f"{name}: the same label cites different identifiers (zh, en): {differ}"


def test_parser_and_identifiers():
    refs, defs = footnotes(
        "Text[^a]: a colon after it, and[^b].\n\n```\n[^c]\n```\n[^a]: Paper, arXiv:1706.03762.\n"
        "[^b]: Config.\n    https://huggingface.co/x/config.json\n[^d]: doi:10.1145/1.2."
    )
    assert refs == {"a", "b"} and set(defs) == {"a", "b", "d"}
    assert identifiers(defs["a"]) == {"arXiv:1706.03762"}
    assert identifiers(defs["b"]) == {"https://huggingface.co/x/config.json"}
    assert identifiers(defs["d"]) == {"doi:10.1145/1.2"}
    assert identifiers("https://arxiv.org/abs/1706.03762v5") == {"arXiv:1706.03762"}
    assert identifiers("no identifier here") == set()

"""Footnotes: every reference has a definition and vice versa, zh and en cite the same sources by the same ids, in the
one citation style of CONTRIBUTING.md (tools/citations.py)."""

import re

import pytest
from citations import fix, paper_heads, problems  # tools/ is on pytest's pythonpath (pyproject.toml)
from site_reader import DOCS, LANGS, page_names

FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
DEFINITION = re.compile(r"^\[\^([^\]\s]+)\]:\s?(.*)$")
REFERENCE = re.compile(r"\[\^([^\]\s]+)\]")
ARXIV = re.compile(r"(?:arXiv:\s?|arxiv\.org/(?:abs|pdf)/)(\d{4}\.\d{4,5})(?:v\d+)?", re.I)
DOI = re.compile(r"(?:doi:\s?|doi\.org/)(10\.\d{4,9}/[^\s,;)\]，；。）]+)", re.I)  # a DOI is ASCII: 。 ends it
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


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", page_names())
def test_citation_style(lang, name):
    found = problems((DOCS / lang / name).read_text(encoding="utf-8"), lang)
    assert not found, f"docs/{lang}/{name} (fix: python tools/citations.py --fix docs/{lang}/{name}):\n" + "\n".join(
        f"  line {n}: {m}" for n, m in found
    )


@pytest.mark.parametrize("name", page_names())
def test_zh_and_en_name_papers_alike(name):
    """A paper's authors and title are written the same on both pages; only the notes are translated."""
    zh, en = (paper_heads((DOCS / lang / name).read_text(encoding="utf-8")) for lang in ("zh", "en"))
    differ = {label: (zh.get(label), head) for label, head in en.items() if zh.get(label) != head}
    assert not differ, f"{name}: (zh, en) {differ}"


GOOD = {
    "paper": "[^v]: Vaswani et al., *Attention Is All You Need*, NeurIPS 2017, §3.2.3 (the mask). arXiv:1706.03762",
    "three authors": "[^b]: Bahdanau, Cho, Bengio, *Neural Machine Translation*, ICLR 2015, §3.1. arXiv:1409.0473",
    "docs page": "[^t]: PyTorch 2.13 documentation, `torch.triu`: keeps the upper triangle. https://docs.pytorch.org/x",
    "thread": "[^i]: pytorch/pytorch, issue #103963, *NaN rows* (2023): NaN. https://github.com/pytorch/pytorch/issues/103963",
    "code file": "[^g]: openai/gpt-2, `README.md` (commit 9b63575): counts. "
    "https://github.com/openai/gpt-2/blob/9b63575ef42771a015060c964af2c3da4cf7c8ab/README.md",
    "model file": "[^c]: google/gemma-7b, `config.json` (as released): 16 heads. "
    "https://huggingface.co/google/gemma-7b/blob/main/config.json",
}


@pytest.mark.parametrize("kind", GOOD)
def test_citation_checker_passes_the_house_style(kind):
    assert problems(GOOD[kind], "en") == []


@pytest.mark.parametrize(
    "text, lang, problem",
    [
        ('[^v]: A. Vaswani et al., "Attention Is All You Need", NeurIPS 2017. arXiv:1706.03762', "en", "no initials"),
        ("[^v]: Vaswani et al. *Attention Is All You Need*. NeurIPS 2017. arXiv:1706.03762", "en", "commas"),
        ("[^v]: Vaswani, Shazeer, Parmar, Uszkoreit, *Attention*, NeurIPS 2017. arXiv:1706.03762", "en", "et al."),
        ("[^v]: Vaswani et al., “Attention Is All You Need”, NeurIPS 2017. arXiv:1706.03762", "zh", "a paper starts"),
        ("[^v]: Vaswani et al., *Attention Is All You Need*, EMNLP 2023。arXiv:1706.03762", "zh", "'. ', not '。'"),
        ("[^t]: PyTorch documentation, Glossary, “mask”: 1. https://docs.pytorch.org/x", "en", "documentation page"),
        ("[^i]: pytorch/pytorch issue #1 (2023): NaN. https://github.com/pytorch/pytorch/issues/1", "en", "owner/name"),
        (
            "[^i]: pytorch/pytorch, the thread (2023): NaN. https://github.com/pytorch/pytorch/issues/1",
            "en",
            "issue #1",
        ),
        ("[^g]: OpenAI, `README.md`: counts. https://github.com/openai/gpt-2/blob/main/README.md", "en", "owner/name"),
        ("[^g]: openai/gpt-2, the readme: x. https://github.com/openai/gpt-2/blob/main/README.md", "en", "`README.md`"),
        (
            "[^g]: openai/gpt-2, `README.md`: x. https://github.com/openai/gpt-2/blob/9b63575ef42771a015060c964af2c3da4cf7c8ab/README.md",
            "zh",
            "（提交 9b63575）",
        ),
    ],
)
def test_citation_checker_finds(text, lang, problem):
    assert any(problem in m for _, m in problems(text, lang)), problems(text, lang)


@pytest.mark.parametrize(
    "text, lang, fixed",
    [
        (
            '[^b]: Y. Bengio, P. Simard, P. Frasconi, "Learning", *IEEE TNN* 5(2), 1994. doi:10.1109/72.279181',
            "en",
            "[^b]: Bengio, Simard, Frasconi, *Learning*, IEEE TNN 5(2), 1994. doi:10.1109/72.279181",
        ),
        (
            "[^r]: M. Ranzato, S. Chopra, M. Auli, W. Zaremba, “Sequence”, ICLR 2016（提出一词）。arXiv:1511.06732",
            "zh",
            "[^r]: Ranzato et al., *Sequence*, ICLR 2016（提出一词）。arXiv:1511.06732",
        ),
        (
            "[^d]: Devlin, Chang, Lee, Toutanova. *BERT*. NAACL 2019. §3.1 (masked LM). arXiv:1810.04805",
            "en",
            "[^d]: Devlin et al., *BERT*, NAACL 2019, §3.1 (masked LM). arXiv:1810.04805",
        ),
        (
            "[^r]: Radford et al. *Language Models*. OpenAI, 2019. 表 2（最小的模型）。https://cdn.openai.com/x.pdf",
            "zh",
            "[^r]: Radford et al., *Language Models*, OpenAI, 2019，表 2（最小的模型）。https://cdn.openai.com/x.pdf",
        ),
        (
            "[^w]: Radford et al. *Robust Speech Recognition* (Whisper). 2022. §2.2 (the model). arXiv:2212.04356",
            "en",
            "[^w]: Radford et al., *Robust Speech Recognition* (Whisper), 2022, §2.2 (the model). arXiv:2212.04356",
        ),
        (
            "[^a]: Ainslie et al., *GQA*, EMNLP 2023。arXiv:2305.13245",
            "zh",
            "[^a]: Ainslie et al., *GQA*, EMNLP 2023. arXiv:2305.13245",
        ),
        ("[^w]: Ba, Kiros, Hinton. *Layer Normalization*. 2016. arXiv:1607.06450", "en", None),
    ],
)
def test_citation_fixer(text, lang, fixed):
    out = fix(text, lang)
    if fixed is not None:
        assert out == fixed
    assert problems(out, lang) == []

"""Check or fix the house citation style of footnote definitions, in both languages (CONTRIBUTING.md, "Footnotes").

    paper      Vaswani et al., *Attention Is All You Need*, NeurIPS 2017, §3.2.3 (what it says). arXiv:1706.03762
    docs page  PyTorch 2.13 documentation, `torch.triu`: what it says. https://docs.pytorch.org/...
    thread     pytorch/pytorch, issue #103963, *Title* (2023): what was said. https://github.com/pytorch/pytorch/issues/103963
    code file  openai/gpt-2, `README.md` (commit 9b63575): what it holds. https://github.com/openai/gpt-2/blob/9b63575.../README.md

A paper names up to three authors by surname (four or more: the first, then "et al."), then its title in italics,
then venue and year, separated by commas; a file or thread in a repository (GitHub, the Hugging Face Hub) starts with
the repository's owner/name, then the file's path in backticks and, for a pinned commit, "(commit abc1234)"
("（提交 abc1234）" on a zh page). A paper's authors and title are the same on both pages.

    python tools/citations.py docs/*/*.md          # report, exit 1 if anything is found
    python tools/citations.py --fix docs/*/*.md    # convert the old styles where it can be done mechanically

The fixer converts a paper written "A. Vaswani, N. Shazeer, “Title”, Venue" or "Vaswani, Shazeer. *Title*. Venue."
to the house style (on a zh page, the typography rules of tools/zh_typography.py then decide , or ， and . or 。 next
to Chinese in the lines it changed); a source it cannot rewrite, such as a repository's, is reported.
"""

import re
import sys

import zh_typography  # tools/ is sys.path[0] as a script and in pytest
from prose import fixer_main

DEFINITION = re.compile(r"^(\[\^[^\]\s]+\]:[ \t]+)(.*)$")
NAME = r"[^\s,.*“”\"()（）:：][^,.*“”\"()（）:：]*?"  # a surname or an organisation: no initials, no punctuation
AUTHORS = rf"{NAME}(?:, {NAME}){{0,2}}|{NAME} et al\."
PAPER_HEAD = re.compile(rf"^(?:{AUTHORS}), \*[^*\n]+\*(?: \([^()\n]+\))?(?:, |，|$)")
PAPER_ID = re.compile(r"arXiv:|doi:|aclanthology\.org/|\.pdf\b", re.I)
REPO_URL = re.compile(
    r"https?://(?:github\.com|huggingface\.co)/(?!docs/|blog/|papers/)([\w.-]+)/([\w.-]+)"
    r"(?:/(blob|issues|pull)/([^/\s]+)(?:/(\S+))?)?"
)
IDEOGRAPH = r"[\u3400-\u4dbf\u4e00-\u9fff]"
DOCS_PAGE = re.compile(r"^[^,，:：]* (?:documentation|reference|文档|参考文档)[,，] ?(?![ *`])")
HASH = re.compile(r"[0-9a-f]{40}")
IDENTIFIER_START = re.compile(r"^(?:arXiv:|doi:|https?://)")
YEAR_STOP = re.compile(r"(?<=\d)。(?=arXiv:|doi:|https?://)")  # a zh paper: "EMNLP 2023. arXiv:", not "2023。arXiv:"

# The old styles, for the fixer.
QUOTED = re.compile(r"^(?P<authors>[^“\"*]+?), [“\"](?P<title>[^”\"]+)[”\"](?P<rest>.*)$")  # A. Vaswani, “Title”, ...
PERIODS = re.compile(r"^(?P<authors>[^*]+?)\. \*(?P<title>[^*]+)\*(?P<rest>.*)$")  # Vaswani et al. *Title*. ...
NICK = re.compile(r"\*（([A-Za-z0-9 -]+)）[，,]\s?")  # *Title*（Whisper），2022 -> *Title* (Whisper), 2022
INITIAL = re.compile(r"^(?:[A-Z]\.(?:-[A-Z]\.)?\s*)+")


def definitions(text):
    """Yield (line number, label and separator, body) for every footnote definition of a page, outside code fences."""
    fence = None
    for n, line in enumerate(text.split("\n"), 1):
        m = re.match(r"^\s*(`{3,}|~{3,})", line)
        if m:
            fence = None if fence and m.group(1).startswith(fence) else (fence or m.group(1)[:3])
            continue
        d = None if fence else DEFINITION.match(line)
        if d:
            yield n, d.group(1), d.group(2)


def repository(body):
    """Return (owner/name, kind, ref, path) of the first repository URL a definition cites, or None."""
    m = REPO_URL.search(body)
    if not m:
        return None
    return f"{m.group(1)}/{m.group(2)}", m.group(3), m.group(4), m.group(5)


def is_paper(body):
    return bool(PAPER_ID.search(body)) and repository(body) is None


def body_problems(body, lang):
    """Return [message] for one footnote definition's text (the part after "[^label]: ")."""
    found = []
    if re.match(r"^(?:[A-Z]\.(?:-[A-Z]\.)?\s)+", body):
        found.append("authors by surname, no initials: 'Vaswani et al.', not 'A. Vaswani et al.'")
    if re.search(r"\*[^*\n]+\*\.(?:\s|$)", body) or re.match(rf"^(?:{AUTHORS})\. \*", body):
        found.append("separate authors, title, venue and year with commas: 'Vaswani et al., *Title*, NeurIPS 2017'")
    if is_paper(body) and not PAPER_HEAD.match(body):
        found.append("a paper starts 'Surname, Surname, Surname, *Title*, Venue Year' (four authors or more: 'et al.')")
    if DOCS_PAGE.match(body):
        found.append("a documentation page: 'Project documentation, *Page title*' (or an API's `name`)")
    if lang == "zh" and is_paper(body) and YEAR_STOP.search(body):
        found.append("after the year the identifier follows '. ', not '。'")
    repo = repository(body)
    if repo:
        name, kind, ref, path = repo
        if not (body.startswith(name + ", ") or lang == "zh" and re.match(rf"{re.escape(name)}，{IDEOGRAPH}", body)):
            found.append(f"a repository's source starts with its owner/name: '{name}, ...'")
        if kind == "blob" and path and f"`{path}`" not in body:
            found.append(f"name the file as its path in the repository: `{path}`")
        if kind == "blob" and ref and HASH.fullmatch(ref):
            commit = f"(commit {ref[:7]})" if lang == "en" else f"（提交 {ref[:7]}）"
            if commit not in body:
                found.append(f"a pinned file gives its commit after the path: {commit}")
        if kind in ("issues", "pull"):
            word = "issue" if kind == "issues" else "pull request"
            if f"{word} #{ref}" not in body:
                found.append(f"name the thread: '{name}, {word} #{ref}'")
    return found


def problems(text, lang):
    """Return [(line number, message)] for every footnote definition of a page that breaks the citation style."""
    return [(n, message) for n, _, body in definitions(text) for message in body_problems(body, lang)]


def paper_heads(text):
    """Return {label: 'Authors, *Title*'} for the papers a page cites (the part both languages write alike)."""
    heads = {}
    for _, label, body in definitions(text):
        m = PAPER_HEAD.match(body)
        if m and is_paper(body):
            heads[label.split("]")[0] + "]"] = m.group(0).rstrip(", ，")
    return heads


def surnames(authors):
    """Return the house author list for 'A. Vaswani, N. Shazeer' or 'Vaswani, Shazeer, ...' (four or more: et al.)."""
    authors = authors.strip().removesuffix(".")
    if authors.endswith("et al"):
        return INITIAL.sub("", authors[: -len("et al")].strip()) + " et al."
    names = [INITIAL.sub("", a.strip()) for a in authors.split(",")]
    return ", ".join(names) if len(names) <= 3 else names[0] + " et al."


def fix_body(body):
    """Return a paper's footnote text in the house style, converted from the two older styles; others unchanged."""
    body = NICK.sub(r"* (\1), ", body)
    if not is_paper(body) or PAPER_HEAD.match(body) and "*." not in body:
        return body
    m = QUOTED.match(body)
    if m:  # A. Vaswani, N. Shazeer, “Title”, Venue, *Journal* 1(2), 2017. arXiv:...
        rest = re.sub(r"\*([^*\n]+)\*", r"\1", m.group("rest"))  # only the title is in italics
        return f"{surnames(m.group('authors'))}, *{m.group('title')}*{rest}"
    m = PERIODS.match(body)
    if m:  # Vaswani, Shazeer. *Title*. Venue 2017. §3 (what). arXiv:...
        rest = m.group("rest")
        nick = re.match(r"^(\s?[(（][^()（）]+[)）])", rest)  # *Title* (Whisper)
        head = f"{surnames(m.group('authors'))}, *{m.group('title')}*"
        if nick:
            head += " (" + nick.group(1).strip()[1:-1] + ")"
            rest = rest[nick.end() :]
        rest = re.sub(r"^\.?\s?", "", rest)
        # the venue and year end at the first '. ': a comma before a locator, a period before the identifier
        v = re.match(r"^([^.。]*?(?:\d{4}|\d{4} 年 \d+ 月 \d+ 日))([.。]\s?)(.*)$", rest)
        if v and not IDENTIFIER_START.match(v.group(3)):
            rest = f"{v.group(1)}, {v.group(3)}"
        return f"{head}, {rest}" if rest else head
    return body


def fix(text, lang):
    """Return a page with every footnote definition the fixer can convert in the house citation style."""
    lines = text.split("\n")
    for n, label, body in definitions(text):
        fixed = fix_body(body)
        if lang == "zh" and is_paper(fixed):
            fixed = YEAR_STOP.sub(". ", fixed)
        if lang == "zh" and fixed != body:  # , or ， and . or 。 next to Chinese: the typography rules decide
            fixed = zh_typography.fix(label + fixed)[len(label) :]
        lines[n - 1] = label + fixed
    return "\n".join(lines)


def main(argv=None):
    """Report the problems of the files given, fixing them first with --fix; return 1 if any is left."""
    return fixer_main(__doc__, fix, problems, argv, by_language=True)


if __name__ == "__main__":
    sys.exit(main())

"""Find the prose of a Markdown page: mask code, math, HTML, URLs and Markdown syntax, keep positions."""

import argparse
import re
from pathlib import Path

MASK = "\x00"  # stands in for every masked character, so offsets in the masked text are offsets in the page

FENCE = re.compile(r"^\s*(`{3,}|~{3,})")
INLINE = re.compile(
    "|".join(
        [
            r"(`+).+?\1",  # inline code
            r"(?<![\\$])\$(?!\$)(?:\\.|[^$\\\n])+?\$",  # inline math $...$
            r"\\\(.+?\\\)",  # inline math \(...\)
            r"<!--.*?-->",  # one-line HTML comment
            r"</?[A-Za-z][^>\n]*>",  # HTML tags and their attributes
            r"https?://[^\s)>\]]+",  # bare URLs
            r"\]\([^)\n]*\)",  # link targets and titles
            r"\[\^[^\]\n]+\]:?",  # footnote references and labels
            r"\{\s*[:#.][^}\n]*\}",  # attribute lists
            r"&[#\w]+;",  # HTML entities
        ]
    )
)
ADMONITION = re.compile(r'^(\s*(?:!!!|\?\?\?\+?|===\+?)\s*(?:[\w-]+(?:\s+[\w-]+)*)?\s*)(?:(")(.*)("))?\s*$')
LINK_DEF = re.compile(r"^\s*\[[^\]^][^\]]*\]:\s*\S+.*$")
MATH_WORDS = re.compile(r"\\(?:text|textrm|textsf|mbox)\{([^{}\n]*)\}")  # words inside math: \text{每头维度}
MATH_START = ("$", "\\(")


def _blank_math(s, math_words):
    """Blank a math span; with math_words, keep what its \\text{...} holds (words, not symbols)."""
    out = list(_blank(s))
    if math_words:
        for m in MATH_WORDS.finditer(s):
            out[m.start(1) : m.end(1)] = s[m.start(1) : m.end(1)]
    return "".join(out)


def _blank(s):
    return "".join(c if c == "\n" else MASK for c in s)


def mask_line(line, math_words=False):
    """Return the line with every non-prose character replaced by MASK (same length).

    With math_words, the words a formula holds in \\text{...} stay visible (a term check reads them).
    """
    if line.lstrip().startswith("--8<--") or LINK_DEF.match(line):
        return _blank(line)
    out = list(line)
    m = ADMONITION.match(line)
    if m:  # the marker, the type and the title's quote marks are syntax; the title is prose
        for group in (1, 2, 4):
            if m.group(group) is not None:
                out[m.start(group) : m.end(group)] = MASK * (m.end(group) - m.start(group))
    for m in INLINE.finditer(line):
        out[m.start() : m.end()] = _blank_math(m.group(0), math_words and m.group(0).startswith(MATH_START))
    return "".join(out)


def mask(text, math_words=False):
    """Return text with code fences, math, front matter, HTML and Markdown syntax masked; prose unchanged.

    With math_words, the words inside math's \\text{...} are kept as prose too.
    """
    lines = text.split("\n")
    out = []
    fence = None  # the opening fence's marker while inside a fenced block
    math = comment = False
    front = bool(lines) and lines[0].strip() == "---"
    for n, line in enumerate(lines):
        stripped = line.strip()
        if front:
            out.append(_blank(line))
            front = not (n > 0 and stripped == "---")
            continue
        if fence:
            out.append(_blank(line))
            m = FENCE.match(line)
            if (
                m
                and m.group(1)[0] == fence[0]
                and len(m.group(1)) >= len(fence)
                and not stripped[len(m.group(1)) :].strip()
            ):
                fence = None
            continue
        if math:
            out.append(_blank_math(line, math_words))
            math = "$$" not in line and "\\]" not in line
            continue
        if comment:
            out.append(_blank(line))
            comment = "-->" not in line
            continue
        m = FENCE.match(line)
        if m:
            fence = m.group(1)
            out.append(_blank(line))
            continue
        if stripped.startswith("$$") or stripped.startswith("\\["):
            out.append(_blank_math(line, math_words))
            closed = stripped.count("$$") >= 2 or (stripped.startswith("\\[") and "\\]" in stripped)
            math = not closed
            continue
        if stripped.startswith("<!--") and "-->" not in stripped:
            out.append(_blank(line))
            comment = True
            continue
        out.append(mask_line(line, math_words))
    return "\n".join(out)


def is_footnote_definition(line):
    """Return whether a Markdown line starts a footnote definition."""
    return re.match(r"^\[\^[^\]]+\]:", line) is not None


def fixer_main(doc, fix, problems, argv=None, by_language=False):
    """Run a page fixer from the command line: report each problem of the files, rewrite them first with --fix.

    fix(text) returns the fixed text, problems(text) yields (line, message); with by_language both take the page's
    language as a second argument too ("zh" for a file under a zh folder, else "en"). Returns 1 if a problem is left.
    """
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--fix", action="store_true", help="rewrite the files in place")
    parser.add_argument("files", nargs="+", type=Path)
    args = parser.parse_args(argv)
    left = 0
    for path in args.files:
        text = path.read_text(encoding="utf-8")
        lang = ("zh" if "zh" in path.parts else "en",) if by_language else ()
        if args.fix:
            fixed = fix(text, *lang)
            if fixed != text:
                path.write_text(fixed, encoding="utf-8")
                print(f"{path}: fixed")
            text = fixed
        for n, message in problems(text, *lang):
            print(f"{path}:{n}: {message}")
            left += 1
    return 1 if left else 0

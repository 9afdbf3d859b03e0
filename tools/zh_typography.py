"""Check or fix the Chinese typography of zh pages' prose (the house rules of CONTRIBUTING.md).

Rules: quotes are “…” (‘…’ inside), never ASCII quotes or 「…」; an ellipsis is ……; brackets and
commas next to Chinese are full-width （…），; "15%" without a space; footnotes cite "Vaswani et al.",
not "Vaswani 等"; the pipeline's stages are 第 3 步, not ③; number formats are upper case (FP16,
BF16, FP32, FP8, INT8); adjacent footnote markers touch ([^a][^b]); no space just inside full-width quotes or
brackets; a space between Chinese and Latin letters, digits or inline code (用 `mask` 遮住); in footnotes,
punctuation after Chinese is full-width and a source's table is 表 2, not "Table 2"; no italics on Chinese;
numbers without thousands separators (10000); a spaced × between two operands (3 × 3); 第 3 步, not
第 3 阶段; a bold lead-in is "**短句。** 正文" or "**标签**：".

    python tools/zh_typography.py docs/zh/05-mask.md ...        # report, exit 1 if anything is found
    python tools/zh_typography.py --fix docs/zh/05-mask.md ...  # rewrite what can be fixed safely, report the rest

Code fences, inline code, math, HTML, URLs and Markdown syntax are never touched (tools/prose.py).
An ASCII-quoted span with no Chinese in it and none around it is an English sentence's own
quotation and stays as it is.
"""

import re
import sys

from prose import MASK, fixer_main, is_footnote_definition, mask  # tools/ is sys.path[0] as a script and in pytest

CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef\u201c\u201d\u2018\u2019]")
PERCENT = re.compile(r"(?<=\d)[ \u00a0\u2009\u202f]+(?=%)")
BRACKETS = re.compile(r"（[^（）\n]*）")
SINGLE = re.compile(r"'([^'\n]*)'")
HAN = r"[\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef“”‘’]"  # Chinese text and its punctuation
CORNER = re.compile(r"「([^「」\n]*)」")
CJK_TEXT = r"[\u3400-\u4dbf\u4e00-\u9fff\u3000-\u303f\uff00-\uffef]"  # "French: …" in “…” is English
ELLIPSIS = re.compile(rf"(?<!…)(?:…|\.\.\.)(?!…)(?={CJK_TEXT})|(?<={CJK_TEXT})(?<!…)(?:…|\.\.\.)(?!…)")
PARENS = re.compile(r"\(([^()\n]*)\)")
IDEOGRAPH = r"[\u3400-\u4dbf\u4e00-\u9fff]"  # a comma between “Title” or （注） and English is bibliography, not prose
COMMA = re.compile(rf"(?<={IDEOGRAPH})(?<![A-Za-z] 等),[ ]*|,[ ]*(?={IDEOGRAPH})")  # "Cho 等," is the author rule's
AUTHOR = re.compile(r"(?<=[A-Za-z]) 等(?=[,，.])")
CIRCLED = re.compile(r"(?:阶段|第)?\s*([①②③④⑤⑥⑦⑧⑨])\s*(?:步)?")
NUMBER_FORMAT = re.compile(r"(?<![A-Za-z0-9_\-./=\"])(fp16|bf16|fp32|fp8|int8|Fp16|Bf16|Fp32|Fp8|Int8)(?![A-Za-z0-9_])")
MARKERS = re.compile(r"(?<=\])[ \t]+(?=\[\^)")
CIRCLED_DIGITS = "①②③④⑤⑥⑦⑧⑨"
INNER_SPACE = re.compile(r"(?<=[“‘（「【])[ \t]+|[ \t]+(?=[”’）」】])")
HAN_LATIN = re.compile(rf"(?<={IDEOGRAPH})(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?={IDEOGRAPH})")
FOOTNOTE_PUNCT = re.compile(rf"(?:(?<={IDEOGRAPH})(?<![A-Za-z] 等)|(?<=）))([.,;:])(?=\s|$)")
FULL_WIDTH = {".": "。", ",": "，", ";": "；", ":": "："}
SOURCE_TABLE = re.compile(r"\b(Table|Tab\.|Figure|Fig\.) (?=\d)")
SOURCE_WORD = {"Table": "表", "Tab.": "表", "Figure": "图", "Fig.": "图"}
ITALIC = re.compile(r"(?<![*\\A-Za-z0-9_])(\*|_)(?![*_\s])([^*_\n]+?)(?<![\s*_])\1(?![*A-Za-z0-9_])")
THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?:,\d{3})+(?![\d,])")
OPERAND = r"[0-9A-Za-z}\)\]]"
TIMES = re.compile(rf"(?<={OPERAND})×(?= ?[0-9A-Za-z{{(\[])|(?<={OPERAND}) ×(?=[0-9A-Za-z{{(\[])")
STAGE = re.compile(r"第\s*(\d+)\s*阶段")
INLINE_CODE = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)")
LEAD_IN = re.compile(r"^(?:\s*[-*] |\s*\d+\. )?\*\*([^*\n]+)\*\*([，,。.：:；;])")
LEAD_IN_COLON = re.compile(r"^(?:\s*[-*] |\s*\d+\. )?\*\*[^*\n]*[：:]\*\*")


def style_problems(line, raw, footnote=False):
    """Return [message] for the spacing, footnote, italics, number, × and lead-in rules on one masked line."""
    found = [
        f"space inside full-width quotes or brackets near {raw[m.start() - 1 : m.end() + 1]!r}"
        for m in INNER_SPACE.finditer(line)
    ]
    found += [
        f"no space between Chinese and Latin/digits at {raw[max(m.start() - 2, 0) : m.start() + 2]!r}"
        for m in HAN_LATIN.finditer(line)
    ]
    found += [
        f"italics on Chinese {m.group(0)!r}: write it plain (or bold where a term is introduced)"
        for m in ITALIC.finditer(line)
        if re.search(IDEOGRAPH, m.group(2))
    ]
    found += [
        f"thousands separator in {m.group(0)!r}: write {m.group(0).replace(',', '')}" for m in THOUSANDS.finditer(line)
    ]
    found += [
        f"× between operands needs a space either side: {raw[m.start() - 2 : m.end() + 2]!r}"
        for m in TIMES.finditer(line)
    ]
    found += [f"stage {m.group(1)!r}: write 第 {m.group(1)} 步" for m in STAGE.finditer(line)]
    found += [
        f"bold lead-in {m.group(0)!r}: write “**短句。** 正文” or “**标签**：”"
        for m in LEAD_IN.finditer(raw)
        if m.group(2) not in "：" and not line.startswith("\x00")
    ]
    found += [f"colon inside a bold lead-in {m.group(0)!r}: write “**标签**：”" for m in LEAD_IN_COLON.finditer(raw)]
    if footnote:
        found += [
            f"ASCII {m.group(1)!r} after Chinese in a footnote: use {FULL_WIDTH[m.group(1)]}"
            for m in FOOTNOTE_PUNCT.finditer(line)
        ]
        found += [
            f"{m.group(1)!r} in a zh footnote: write {SOURCE_WORD[m.group(1)]}" for m in SOURCE_TABLE.finditer(line)
        ]
    return found


def code_gaps(line, masked):
    """Return [index] where Chinese prose touches an inline code span (`code`) with no space: insert one there."""
    if not masked.strip(MASK + " \t"):  # a fenced or math line, all masked: its backticks are not inline code
        return []
    gaps = []
    for m in INLINE_CODE.finditer(line):
        if any(c != MASK for c in masked[m.start() : m.end()]):
            continue  # not a code span the prose mask saw (e.g. backticks inside a URL)
        if m.start() > 0 and re.match(IDEOGRAPH, masked[m.start() - 1]):
            gaps.append(m.start())
        if m.end() < len(line) and re.match(IDEOGRAPH, masked[m.end()]):
            gaps.append(m.end())
    return gaps


def _neighbour(masked, i, step):
    """Return the nearest character from i in direction step that is neither a space nor masked ('' at the edge)."""
    while 0 <= i < len(masked):
        if masked[i] not in " \t" + MASK:
            return masked[i]
        i += step
    return ""


def quote_pairs(masked_line):
    """Return ([(open, close), ...] of ASCII double quotes to make full-width, unbalanced count or 0)."""
    where = [i for i, c in enumerate(masked_line) if c == '"']
    if len(where) % 2:
        return [], len(where)
    pairs = []
    for a, b in zip(where[::2], where[1::2]):
        inside = masked_line[a + 1 : b]
        outside = _neighbour(masked_line, a - 1, -1) + _neighbour(masked_line, b + 1, 1)
        if CJK.search(inside) or CJK.search(outside):
            pairs.append((a, b))
    return pairs, 0


def problems(text):
    """Return [(line number, message)] for every typography problem in a zh page's prose."""
    found = []
    for n, line in enumerate(mask(text).split("\n"), 1):
        pairs, odd = quote_pairs(line)
        if odd:
            found.append((n, f"{odd} ASCII double quotes (odd): use “…”"))
        found += [(n, f"ASCII quotes around {text_line(text, n)[a : b + 1]!r}: use “…”") for a, b in pairs]
        found += [
            (n, f"ASCII quotes around {m.group(0)!r}: use ‘…’") for m in SINGLE.finditer(line) if CJK.search(m.group(1))
        ]
        found += [
            (n, f"ASCII comma inside {text_line(text, n)[m.start() : m.end()]!r}: use ，")
            for m in BRACKETS.finditer(line)
            if "," in m.group(0)
        ]
        found += [(n, "space before %: write 15%") for m in PERCENT.finditer(line)]
        found += [(n, f"corner brackets around {m.group(0)!r}: use “…”") for m in CORNER.finditer(line)]
        found += [(n, "ellipsis in Chinese prose: use ……") for m in ELLIPSIS.finditer(line)]
        found += [
            (n, f"ASCII parentheses around Chinese {m.group(0)!r}: use （…）")
            for m in PARENS.finditer(line)
            if re.search(HAN, m.group(1))
        ]
        found += [(n, "ASCII comma next to Chinese: use ，") for m in COMMA.finditer(line)]
        found += [
            (n, f"stage number {m.group(1)!r}: write 第 {CIRCLED_DIGITS.index(m.group(1)) + 1} 步")
            for m in CIRCLED.finditer(line)
        ]
        found += [
            (n, f"number format {m.group(1)!r}: write {m.group(1).upper()}") for m in NUMBER_FORMAT.finditer(line)
        ]
        raw = text_line(text, n)
        found += [(n, "space between footnote markers: write [^a][^b]") for m in MARKERS.finditer(raw)]
        if is_footnote_definition(raw):
            found += [(n, "footnote author: write 'et al.', not '等'") for m in AUTHOR.finditer(line)]
        found += [(n, message) for message in style_problems(line, raw, is_footnote_definition(raw))]
        found += [
            (n, f"no space between Chinese and inline code at {raw[max(i - 2, 0) : i + 2]!r}")
            for i in code_gaps(raw, line)
        ]
    return found


def text_line(text, n):
    return text.split("\n")[n - 1]


def put(chars, m, text):
    """Write text in place of match m: its first character holds text, the rest become empty."""
    chars[m.start()] = text
    for i in range(m.start() + 1, m.end()):
        chars[i] = ""


def fix(text):
    """Return text with ASCII quotes, commas in （…） and spaces before % fixed in the prose."""
    out_lines = []
    for line, masked in zip(text.split("\n"), mask(text).split("\n")):
        chars = list(line)
        pairs, _ = quote_pairs(masked)
        for a, b in pairs:
            chars[a], chars[b] = "“", "”"
        for m in SINGLE.finditer(masked):
            if CJK.search(m.group(1)):
                chars[m.start()], chars[m.end() - 1] = "‘", "’"
        for m in BRACKETS.finditer(masked):
            for i in range(m.start(), m.end()):
                if masked[i] == ",":
                    chars[i] = "，"
                    j = i + 1
                    while j < m.end() and masked[j] == " ":
                        chars[j] = ""
                        j += 1
        for m in PERCENT.finditer(masked):
            put(chars, m, "")
        for m in CORNER.finditer(masked):
            chars[m.start()], chars[m.end() - 1] = "“", "”"
        for m in ELLIPSIS.finditer(masked):
            put(chars, m, "……")
        for m in PARENS.finditer(masked):
            if re.search(HAN, m.group(1)):
                chars[m.start()], chars[m.end() - 1] = "（", "）"
        for m in COMMA.finditer(masked):
            put(chars, m, "，")
        for m in CIRCLED.finditer(masked):
            put(chars, m, f"第 {CIRCLED_DIGITS.index(m.group(1)) + 1} 步")
        for m in NUMBER_FORMAT.finditer(masked):
            for i in range(m.start(), m.end()):
                chars[i] = chars[i].upper()
        for m in MARKERS.finditer(line):
            put(chars, m, "")
        if is_footnote_definition(line):
            for m in AUTHOR.finditer(masked):
                chars[m.start()] = " et al."
                chars[m.start() + 1] = ""
            for m in FOOTNOTE_PUNCT.finditer(masked):
                chars[m.start()] = FULL_WIDTH[m.group(1)]
                j = m.end()
                while j < len(chars) and masked[j] == " ":
                    chars[j] = ""
                    j += 1
            for m in SOURCE_TABLE.finditer(masked):
                put(chars, m, SOURCE_WORD[m.group(1)] + " ")
        for m in INNER_SPACE.finditer(masked):
            put(chars, m, "")
        for m in HAN_LATIN.finditer(masked):
            chars[m.start()] = " " + chars[m.start()]
        for i in code_gaps(line, masked):
            chars[i] = " " + chars[i]
        for m in THOUSANDS.finditer(masked):
            put(chars, m, m.group(0).replace(",", ""))
        for m in TIMES.finditer(masked):
            put(chars, m, " × ")
        for m in STAGE.finditer(masked):
            put(chars, m, f"第 {m.group(1)} 步")
        # no space between a full-width quote and the Chinese beside it
        for i, c in enumerate(chars):
            if c in "“‘":
                j = i - 1
                while j >= 0 and chars[j] == " " and masked[j] == " ":
                    j -= 1
                if j >= 0 and j < i - 1 and CJK.search(chars[j] or " "):
                    for k in range(j + 1, i):
                        chars[k] = ""
            elif c in "”’":
                j = i + 1
                while j < len(chars) and chars[j] == " " and masked[j] == " ":
                    j += 1
                if j < len(chars) and j > i + 1 and CJK.search(chars[j] or " "):
                    for k in range(i + 1, j):
                        chars[k] = ""
        out_lines.append("".join(chars))
    return "\n".join(out_lines)


def main(argv=None):
    """Report the problems of the files given, fixing them first with --fix; return 1 if any is left."""
    return fixer_main(__doc__, fix, problems, argv)


if __name__ == "__main__":
    sys.exit(main())

"""Compare two builds of the site page by page: the prose, the code, and every figure's data and layout.

For a refactor that must leave every page's numbers as they were: build before and after, then compare.

    .venv/bin/mkdocs build --strict -d /tmp/site-before    # on the commit before
    .venv/bin/mkdocs build --strict -d /tmp/site-after     # on the commit after
    python tools/compare_sites.py /tmp/site-before /tmp/site-after

Each page's visible text is split into code (every <pre>, every inline <code>, a notebook cell's copy text and tags)
and prose (the rest); each figure (a Plotly.newPlot call) is parsed as JSON. A page found in one build only, a prose
line or a figure that differs is reported and makes the exit status 1; the code lines that changed are listed, each
once with how often it changed, for a reader to check that they are exactly the renames intended.
"""

import difflib
import json
import re
import sys
from pathlib import Path

from bs4 import BeautifulSoup

NEWPLOT = "Plotly.newPlot("


def figures(script_text):  # -> {div id: (data, layout)}
    """Return every figure a script draws with Plotly.newPlot, parsed."""
    out, dec, i = {}, json.JSONDecoder(), 0
    while (i := script_text.find(NEWPLOT, i)) >= 0:
        j = i + len(NEWPLOT)
        args = []
        for _ in range(3):
            while script_text[j] in " \n\t,":
                j += 1
            value, j = dec.raw_decode(script_text, j)
            args.append(value)
        out[args[0]] = (args[1], args[2])
        i = j
    return out


def page(path):  # -> (prose lines, code lines, figures)
    """Return a built page's prose lines, its code lines and its figures."""
    soup = BeautifulSoup(path.read_text(encoding="utf-8"), "html.parser")
    figs = {}
    for s in soup.find_all("script"):
        figs |= figures(s.get_text())
        s.decompose()
    for s in soup.find_all("style"):
        s.decompose()
    code = []
    for el in soup.select(".clipboard-copy-txt, .cell-tag"):  # a notebook cell's copy text and its tags: code
        code.extend(el.get_text().splitlines())
        el.replace_with(soup.new_string(" ⟨copy⟩ "))
    for pre in soup.find_all("pre"):
        code.extend(pre.get_text().splitlines())
        pre.replace_with(soup.new_string(" ⟨block⟩ "))
    for c in soup.find_all("code"):
        code.append("`" + c.get_text() + "`")
        c.replace_with(soup.new_string(" ⟨code⟩ "))
    prose = [re.sub(r"\s+", " ", line).strip() for line in soup.get_text("\n").splitlines()]
    return [p for p in prose if p], code, figs


def first_difference(a, b, where="$"):  # -> str or None
    """Return where two parsed JSON values first differ, or None if they are equal."""
    if type(a) is not type(b):
        return f"{where}: {type(a).__name__} vs {type(b).__name__}"
    if isinstance(a, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                return f"{where}.{k}: only in {'after' if k in b else 'before'}"
            if (d := first_difference(a[k], b[k], f"{where}.{k}")) is not None:
                return d
        return None
    if isinstance(a, (list, tuple)):
        if len(a) != len(b):
            return f"{where}: length {len(a)} vs {len(b)}"
        for i, (x, y) in enumerate(zip(a, b)):
            if (d := first_difference(x, y, f"{where}[{i}]")) is not None:
                return d
        return None
    return None if a == b else f"{where}: {a!r} vs {b!r}"


def main(before, after):  # -> exit status
    """Print how the site built in `after` differs from the one in `before`; return 1 if prose or a figure does."""
    before, after = Path(before), Path(after)
    pages_b = {p.relative_to(before) for p in before.rglob("*.html")}
    pages_a = {p.relative_to(after) for p in after.rglob("*.html")}
    bad = 0
    for only, side in ((pages_b - pages_a, "before"), (pages_a - pages_b, "after")):
        for p in sorted(only):
            print(f"ONLY {side}: {p}")
            bad += 1
    n_figs = n_code = 0
    code_changes = []
    for rel in sorted(pages_b & pages_a):
        pb, cb, fb = page(before / rel)
        pa, ca, fa = page(after / rel)
        if pb != pa:
            bad += 1
            print(f"PROSE DIFFERS: {rel}")
            for line in difflib.unified_diff(pb, pa, lineterm="", n=0):
                print("   ", line[:300])
        if set(fb) != set(fa):
            bad += 1
            print(f"FIGURE IDS DIFFER: {rel}: {sorted(set(fb) ^ set(fa))}")
        for fid in sorted(set(fb) & set(fa)):
            n_figs += 1
            if (d := first_difference(fb[fid], fa[fid])) is not None:
                bad += 1
                print(f"FIGURE DIFFERS: {rel} {fid}: {d[:300]}")
        n_code += len(cb)
        for line in difflib.unified_diff(cb, ca, lineterm="", n=0):
            if line.startswith(("---", "+++", "@@")):
                continue
            code_changes.append((str(rel), line))
    print(f"\npages compared: {len(pages_b & pages_a)}; figures compared: {n_figs}; code lines before: {n_code}")
    print(f"prose/figure/page differences: {bad}")
    print(f"code lines changed: {len(code_changes)}")
    distinct = {}
    for rel, line in code_changes:
        distinct.setdefault(line, []).append(rel)
    for line, rels in sorted(distinct.items(), key=lambda kv: (kv[0][1:], kv[0][0])):
        print(f"  {len(rels):3d}x {line[:220]}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))

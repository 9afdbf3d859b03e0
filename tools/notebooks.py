"""Write each chapter's notebook in both languages from one spec: notebooks/<chapter>.yml ->
docs/<lang>/notebooks/<chapter>.ipynb.

A spec holds the code once and the Markdown in zh and en; the only line that differs between the two
notebooks is the language cell, use_language("zh") or use_language("en").
    python tools/notebooks.py          write every notebook
    python tools/notebooks.py --check  exit 1 if a written notebook differs from its spec (stale)
"""

import json
import sys
from pathlib import Path

import yaml

from primer.language import labels

ROOT = Path(__file__).resolve().parents[1]
SPECS = ROOT / "notebooks"
SNIPPETS = ROOT / "docs" / "snippets"
LANGS = ("zh", "en")


def chapters():
    """Return the chapter names that have a notebook spec, in order."""
    return sorted(p.stem for p in SPECS.glob("*.yml"))


def spec(chapter):
    """Return a chapter's spec as a dict."""
    return yaml.safe_load((SPECS / f"{chapter}.yml").read_text(encoding="utf-8"))


def _source(text):
    lines = text.strip("\n").split("\n")
    return [line + "\n" for line in lines[:-1]] + [lines[-1]]


def _md(cell_id, text):
    return {"cell_type": "markdown", "id": cell_id, "metadata": {}, "source": _source(text)}


def _code(cell_id, text, tags=(), hidden=False):
    metadata = {"tags": list(tags)} if tags else {}
    if hidden:
        metadata["jupyter"] = {"source_hidden": True}
    return {
        "cell_type": "code",
        "execution_count": None,
        "id": cell_id,
        "metadata": metadata,
        "outputs": [],
        "source": _source(text),
    }


def notebook(chapter, lang):
    """Return the notebook of a chapter in one language, as a dict (nbformat 4.5, no outputs)."""
    s, w = spec(chapter), labels("notebook", lang)
    cells = [
        _md("title", f"# {s['title'][lang]}\n\n{s['intro'][lang].strip()}\n\n{w['intro']}"),
        _code(
            "language",
            f'from primer.notebook import grade, labels, use_language\n\nuse_language("{lang}")',
            tags=["language"],
        ),
        _md("code-intro", w["code"]),
    ]
    for k, name in enumerate(s["code_files"]):
        cells.append(_code(f"code-{k}", (SNIPPETS / chapter / name).read_text(encoding="utf-8")))
    for k, name in enumerate(s["code_files"]):  # the PyTorch twin, shown in Markdown: running it would need torch
        twin = SNIPPETS / chapter / name.replace(".py", "_torch.py")
        if twin.exists():
            where = twin.relative_to(ROOT).as_posix()
            cells.append(
                _md(
                    f"torch-{k}",
                    w["torch"].format(path=where)
                    + "\n\n```python\n"
                    + twin.read_text(encoding="utf-8").strip("\n")
                    + "\n```",
                )
            )
    for k, plot in enumerate(s.get("plots", [])):
        cells.append(_md(f"plot-{k}-text", plot["text"][lang]))
        cells.append(_code(f"plot-{k}", plot["code"]))
    for k, experiment in enumerate(s.get("experiments", [])):  # a small run, then primer.notebook's check of it
        cells.append(_md(f"experiment-{k}-text", experiment["text"][lang]))
        cells.append(_code(f"experiment-{k}", experiment["code"]))
        cells.append(_code(f"experiment-{k}-check", experiment["check"], tags=["experiment-check"]))
    cells.append(_md("exercises", w["exercises"]))
    for k, ex in enumerate(s["exercises"], start=1):
        name = ex["name"]
        cells.append(
            _md(f"{name}-text", w["exercise"].format(k=k, title=ex["title"][lang]) + "\n\n" + ex["text"][lang].strip())
        )
        cells.append(_code(f"{name}-stub", ex["stub"], tags=["exercise-stub"]))
        cells.append(_code(f"{name}-grade", f'grade("{name}", {ex.get("function", name)})', tags=["exercise-grade"]))
        cells.append(_code(f"{name}-solution", ex["solution"], tags=["exercise-solution"], hidden=True))
    return {
        "cells": cells,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def path(chapter, lang):
    """Return where a chapter's notebook in one language is written."""
    return ROOT / "docs" / lang / "notebooks" / f"{chapter}.ipynb"


def text(chapter, lang):
    """Return the notebook file's exact text."""
    return json.dumps(notebook(chapter, lang), indent=1, ensure_ascii=False) + "\n"


def stale():
    """Return the notebook files that are missing or differ from their specs."""
    return [
        path(c, lang)
        for c in chapters()
        for lang in LANGS
        if not path(c, lang).exists() or path(c, lang).read_text(encoding="utf-8") != text(c, lang)
    ]


def main(argv):
    if "--check" in argv:
        old = stale()
        for p in old:
            print(f"stale: {p.relative_to(ROOT)} (run python tools/notebooks.py)")
        return 1 if old else 0
    for c in chapters():
        for lang in LANGS:
            path(c, lang).parent.mkdir(parents=True, exist_ok=True)
            path(c, lang).write_text(text(c, lang), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The chapter notebooks: one spec per chapter, the same code in zh and en, fresh, every exercise checked both ways.

The site shows the notebooks as written, unexecuted; every one runs here twice, cell by cell in one
namespace as a kernel would. As written (stub, check, hidden solution), every check must say "not yet";
with the solutions in place of the stubs, every check must pass. Both runs draw the figures, so a
Chinese label without a glyph fails them. One notebook also runs in a real Jupyter kernel, as a reader runs it.
"""

import contextlib
import importlib.util
import io
import sys
import warnings
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]


def load_tool(name):
    """Import tools/<name>.py under its own module name: hooks/notebooks.py is `notebooks` in the same session."""
    spec = importlib.util.spec_from_file_location(f"tools_{name}", ROOT / "tools" / f"{name}.py")
    module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


gen = load_tool("notebooks")

LANGS = ("zh", "en")
CHAPTERS = gen.chapters()
NOT_YET = {"zh": "还没写好", "en": "not yet"}
PASSED = {"zh": "：通过", "en": ": passed"}


def read(chapter, lang):
    return nbformat.read(gen.path(chapter, lang), as_version=4)


def tagged(nb, tag):
    return [c for c in nb.cells if tag in c.metadata.get("tags", [])]


def test_every_chapter_has_a_notebook_spec():
    chapters = sorted(p.stem for p in (ROOT / "docs" / "zh").glob("[0-9][0-9]-*.md"))
    assert CHAPTERS == chapters


def test_the_written_notebooks_are_fresh():
    assert gen.stale() == [], "run: python tools/notebooks.py"


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_code_cells_are_the_same_in_both_languages_but_the_language_line(chapter):
    zh, en = read(chapter, "zh"), read(chapter, "en")
    code = {lang: [c.source for c in nb.cells if c.cell_type == "code"] for lang, nb in (("zh", zh), ("en", en))}
    assert len(code["zh"]) == len(code["en"])
    for lang, nb in (("zh", zh), ("en", en)):
        (cell,) = tagged(nb, "language")
        assert cell.source.endswith(f'use_language("{lang}")')
    differ = [(a, b) for a, b in zip(code["zh"], code["en"]) if a != b]
    assert differ == [(tagged(zh, "language")[0].source, tagged(en, "language")[0].source)]
    assert [c.cell_type for c in zh.cells] == [c.cell_type for c in en.cells]
    assert [c.source for c in zh.cells if c.cell_type == "markdown"] != [
        c.source for c in en.cells if c.cell_type == "markdown"
    ]


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_the_chapters_own_code_is_in_the_notebook(chapter):
    nb = read(chapter, "en")
    for name in gen.spec(chapter)["code_files"]:
        snippet = (ROOT / "docs" / "snippets" / chapter / name).read_text(encoding="utf-8").strip("\n")
        assert any(c.source == snippet for c in nb.cells)


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_two_or_three_exercises_each_with_stub_grade_and_hidden_solution(chapter):
    nb = read(chapter, "zh")
    stubs, grades, solutions = (tagged(nb, f"exercise-{k}") for k in ("stub", "grade", "solution"))
    most = 9 if chapter == "14-mask-bugs" else 3  # issue 33 §3: one find-the-bug exercise per reproduced bug
    assert 2 <= len(stubs) == len(grades) == len(solutions) <= most
    assert all(c.metadata["jupyter"]["source_hidden"] for c in solutions)
    assert all("raise NotImplementedError" in c.source for c in stubs)
    assert all(c.source.startswith("grade(") for c in grades)
    assert "plotly" not in "".join(c.source for c in nb.cells if c.cell_type == "code")


def run(nb):
    """Run the code cells in one namespace, as a kernel would; return each code cell's printed text.

    Figures are drawn (Agg) and closed after each cell, so a glyph missing from the font raises here.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    namespace, printed = {"__name__": "__main__"}, {}
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message=".*missing from font")
        for cell in (c for c in nb.cells if c.cell_type == "code"):
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                exec(compile(cell.source, f"<cell {cell.id}>", "exec"), namespace)
                for number in plt.get_fignums():
                    plt.figure(number).canvas.draw()
                plt.close("all")
            printed[cell.id] = out.getvalue()
    return printed


@pytest.mark.parametrize("chapter", CHAPTERS)
def test_with_the_solutions_every_exercise_passes(chapter):
    """In zh only: the en notebook's code is the same but for its language line, as
    test_code_cells_are_the_same_in_both_languages_but_the_language_line checks, and tests/test_exercises.py checks
    the messages of both languages."""
    lang = "zh"
    nb = read(chapter, lang)
    solutions = {c.id.removesuffix("-solution"): c.source for c in tagged(nb, "exercise-solution")}
    for cell in tagged(nb, "exercise-stub"):
        cell.source = solutions[cell.id.removesuffix("-stub")]
    printed = run(nb)
    for cell in tagged(nb, "exercise-grade"):
        assert PASSED[lang] in printed[cell.id] and "✓" in printed[cell.id], printed[cell.id]


@pytest.mark.parametrize("chapter", CHAPTERS)
@pytest.mark.parametrize("lang", LANGS)
def test_as_written_every_exercise_says_not_yet(chapter, lang):
    nb = read(chapter, lang)
    printed = run(nb)
    for cell in tagged(nb, "exercise-grade"):
        assert NOT_YET[lang] in printed[cell.id] and PASSED[lang] not in printed[cell.id], printed[cell.id]


@pytest.mark.slow  # starts a Jupyter kernel
@pytest.mark.parametrize("lang", LANGS)
def test_a_notebook_runs_in_a_jupyter_kernel_as_written(lang):
    """The way a reader runs it (nbclient is what mkdocs-jupyter and nbconvert run notebooks with)."""
    from nbclient import NotebookClient

    nb = read("05-mask", lang)
    NotebookClient(
        nb, kernel_name="python3", timeout=120, resources={"metadata": {"path": str(gen.path("05-mask", lang).parent)}}
    ).execute()
    outputs = {c.id: c.outputs for c in nb.cells if c.cell_type == "code"}
    for cell in tagged(nb, "exercise-grade"):
        text = "".join(o.get("text", "") for o in outputs[cell.id])
        assert NOT_YET[lang] in text, outputs[cell.id]
    images = [o for out in outputs.values() for o in out if "image/png" in o.get("data", {})]
    assert images, "the matplotlib figure was not drawn"
    assert not any(o.output_type == "error" for out in outputs.values() for o in out)


def test_chapter_7s_six_masks_in_small_form_show_that_only_the_causal_mask_is_honest():
    """The small run the page trains in seconds: its printed table and primer.notebook's check of it agree."""
    from primer.experiments.broken_masks import RUNS

    nb = read("07-decoder", "en")
    printed = run(nb)
    (check,) = tagged(nb, "experiment-check")
    assert printed[check.id].startswith("✓ six masks"), printed[check.id]
    rows = [line.split() for line in printed["experiment-0"].splitlines()[2:]]
    assert [r[0] for r in rows] == list(RUNS)
    own, honest = ({r[0]: float(r[k]) for r in rows} for k in (1, 2))
    assert honest["causal"] == own["causal"] < min(honest[k] for k in RUNS[1:])
    assert all(own[k] < honest[k] for k in RUNS[1:])


def test_the_six_masks_check_names_the_run_that_breaks_the_claim():
    from types import SimpleNamespace

    from primer.notebook.experiments import six_masks_verdict

    def runs(**losses):
        return {name: SimpleNamespace(val_loss=own, heldout_loss=honest) for name, (own, honest) in losses.items()}

    assert six_masks_verdict(runs(causal=(1.0, 1.0), no_mask=(0.5, 2.0)))[0]
    passed, why = six_masks_verdict(runs(causal=(1.0, 1.0), no_mask=(0.5, 2.0), inverted=(0.4, 0.9)))
    assert not passed and "inverted" in why and "0.90" in why
    passed, why = six_masks_verdict(runs(causal=(1.0, 1.0), triu_2=(2.5, 2.0)))
    assert not passed and "triu_2" in why and "2.50" in why

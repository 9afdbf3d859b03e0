"""Chapter 14 (mask bugs in the wild) over the built site: each bug's table and the overview, recomputed from primer."""

import markdown
import numpy as np
import pytest
from site_reader import LANGS, tables

from primer import wild_bugs
from primer.figures import mask_bugs as figures
from primer.inputs.mask_bugs import N_PAD, ORDER, SEED, SHIFT_FP16, SHIFT_MASKED_BIAS, WINDOW, D, N
from primer.language import labels

PAGE = "14-mask-bugs.md"
SHIFTS = {"masked_bias": SHIFT_MASKED_BIAS, "fp16_min": SHIFT_FP16}


def rendered(table_markdown):
    """Return the rows of a Markdown table as the page shows them."""
    return tables(markdown.markdown(table_markdown, extensions=["tables"]))[0]


def results():
    x = np.random.default_rng(SEED).standard_normal((N, D))
    valid = np.arange(N) < N - N_PAD
    out = {}
    for name in ORDER:
        kw = dict(shift=SHIFTS.get(name, 0.0), window=WINDOW)
        verdicts = wild_bugs.checked(name, n=N, d=D, n_pad=N_PAD, seed=SEED, **kw)
        out[name] = (wild_bugs.symptom(name, x, valid=valid, **kw), verdicts)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_bug_table_is_primers(read_page, lang):
    page_tables = tables(read_page(lang, PAGE))
    for name, (measured, verdicts) in results().items():
        expected = rendered(figures.bug_table(wild_bugs.BUGS[name].measure, measured, verdicts, lang=lang))
        assert expected in page_tables, name


@pytest.mark.parametrize("lang", LANGS)
def test_the_overview_says_every_bug_is_flagged_and_every_fix_passes(read_page, lang):
    res = results()
    expected = rendered(figures.overview_table([wild_bugs.BUGS[n] for n in ORDER], res, lang=lang))
    assert expected in tables(read_page(lang, PAGE))
    ok = labels("mask_bugs", lang)["kit_ok"]
    assert [row[-1] for row in expected[1:]] == [ok] * len(ORDER)


@pytest.mark.parametrize("lang", LANGS)
def test_the_printed_numbers(read_page, lang):
    page = read_page(lang, PAGE)
    for cell in ("100.0%", "83.5%", "29.3%", "2.3e+00", "5.0e-01", "&lt; 1e-12"):
        assert cell in page, cell


@pytest.mark.parametrize("lang", LANGS)
def test_every_thread_is_cited(read_page, lang):
    page = read_page(lang, PAGE)
    for url in (
        "https://github.com/karpathy/minGPT/issues/75",
        "https://github.com/huggingface/transformers/pull/17306",
        "https://github.com/pytorch/pytorch/issues/28272",
        "https://github.com/rasbt/LLMs-from-scratch/pull/1062",
        "https://github.com/opendilab/DI-engine/issues/333",
        "https://github.com/hyunwoongko/transformer/pull/40",
        "https://github.com/pytorch/pytorch/issues/103749",
        "https://github.com/pytorch/pytorch/issues/144858",
        "https://github.com/huggingface/transformers/issues/39408",
    ):
        assert url in page, url

"""Chapter 15 (packing) over the built site: the leak, the trained runs, the printed lines, recomputed from primer."""

import html as htmllib
import subprocess
import sys

import markdown
import numpy as np
import pytest
from part4_masks import leak_rows
from site_reader import DOCS, LANGS, tables

from primer.experiments.packed_training import packed_runs, row_doc_ids
from primer.experiments.trained_decoder import trained_decoder
from primer.figures import mask_kit
from primer.figures import packing as figures
from primer.inputs.decoder import CORPUS, EXPERIMENT, GRAMMAR, MODEL, SEEDS, TRAINING
from primer.inputs.packing import CHANGED_POSITION, CHANGED_WORD, FIRST, HELD_OUT_ROW, PREFIX, PROMPT_LEN
from primer.masks import cu_seqlens
from primer.packing import document_leak
from primer.rounding import is_rounding

PAGE = "15-packing.md"
SNIPPETS = DOCS / "snippets" / "15-packing"


def rendered(table_markdown):
    """Return the rows of every Markdown table in the text, as the page shows them."""
    return tables(markdown.markdown(table_markdown, extensions=["tables"]))


def printed(name, lang):
    """Return what a snippet prints in the page's language, run as the build runs it."""
    env = {"PRIMER_LANG": lang, "OPENBLAS_NUM_THREADS": "1", "PATH": ""}
    code = (SNIPPETS / f"{name}.py").read_text(encoding="utf-8")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True).stdout


def runs():
    return packed_runs(GRAMMAR, model=MODEL, corpus_args=CORPUS, training=TRAINING, seeds=SEEDS, first=FIRST)


def leak_row():
    data, cfg, run = trained_decoder(**EXPERIMENT)
    tokens = data.heldout_tokens[HELD_OUT_ROW]
    ids = row_doc_ids(tokens[None], data.vocab.index("."))[0]
    moved = document_leak(tokens, ids, CHANGED_POSITION, data.vocab.index(CHANGED_WORD), run.params, cfg)
    return ids, moved


def test_the_leak_the_prose_describes():
    ids, moved = leak_row()
    assert len(np.unique(ids)) == 3 and ids[CHANGED_POSITION] == 0  # three documents; the change is in the first
    other = ids != 0
    assert not any(is_rounding(d) for d in moved["causal"][other])  # causal: every later document moves
    assert is_rounding(moved["document"][other])  # document mask: none of them does
    assert is_rounding(moved["document"][:CHANGED_POSITION])  # nor its own document before the change
    assert not any(is_rounding(d) for d in moved["document"][CHANGED_POSITION : int(np.argmax(other))])


def test_the_trained_runs_are_as_the_prose_says():
    gaps = np.array([r.first_causal - r.first_document for r in runs()])
    assert len(gaps) >= 5
    assert gaps.min() > -0.01  # "no seed goes clearly the other way"
    assert (np.abs(gaps) < 0.01).any()  # "in some seeds the two models do equally well"
    assert (gaps > 0.02).sum() >= 2  # "in the others the model trained under the document mask does better"


@pytest.mark.parametrize("lang", LANGS)
def test_the_tables_are_primers(read_page, lang):
    page = tables(read_page(lang, PAGE))
    r = runs()
    for expected in (figures.packed_runs_table(r, FIRST, lang=lang), figures.packed_spread_table(r, FIRST, lang=lang)):
        assert rendered(expected)[0] in page
    assert rendered(printed("forms", lang))[0] in page


@pytest.mark.parametrize("lang", LANGS)
def test_the_printed_lines_are_primers(read_page, lang):
    page = htmllib.unescape(read_page(lang, PAGE))
    for name in ("varlen", "positions", "loss_mask", "prefix_lm"):
        for line in printed(name, lang).strip().split("\n"):
            assert line in page, (name, line)


def test_the_printed_lines_say_what_the_prose_says():
    data, _, _ = trained_decoder(**EXPERIMENT)
    ids = row_doc_ids(data.heldout_tokens[HELD_OUT_ROW][None], data.vocab.index("."))[0]
    varlen = printed("varlen", "en")
    assert f"cu_seqlens: {cu_seqlens(ids).tolist()}" in varlen
    assert varlen.strip().endswith("< 1e-12") and ": True" in varlen
    prefix = printed("prefix_lm", "en").split("\n")
    assert prefix[1].endswith(str(list(range(PROMPT_LEN))))  # a change in the prefix moves the whole prompt
    assert prefix[2].endswith(f"[{PREFIX + 1}, {PREFIX + 2}]")  # only itself and what follows
    assert prefix[3].split(":")[1].strip() == prefix[4].split(":")[1].strip()  # cache and rerun write the same
    assert prefix[5].endswith("< 1e-12")
    positions = printed("positions", "en").split("\n")
    assert positions[2].split(":")[1].strip() == str(ids.tolist())  # restarting positions give the documents back
    assert set(positions[4].split(":")[1].strip(" []").split(", ")) == {"0"}  # running ones give one document


@pytest.mark.parametrize("lang", LANGS)
def test_every_source_is_cited(read_page, lang):
    page = read_page(lang, PAGE)
    for url in (
        "https://github.com/karpathy/nanoGPT/issues/231",
        "https://github.com/huggingface/transformers/blob/2ccc6cae21faaf11631efa5fb9054687ae5dc931/",
        "https://github.com/Dao-AILab/flash-attention/blob/005300258a22e5fc6be621063c3d5704e82b89d9/",
        "https://github.com/huggingface/transformers/blob/6a963f3d731a575393e8c62ee505b11a24bbd4a6/",
        "https://github.com/huggingface/transformers/blob/f14d0cbc824e447ef294d8cdc0f8ad4222f3dfee/",
    ):
        assert url in page, url


@pytest.mark.parametrize("lang", LANGS)
def test_ch15_mask_leaks_table_is_primers(read_page, lang):
    assert rendered(mask_kit.mask_leak_table(leak_rows(15), lang=lang))[0] in tables(read_page(lang, PAGE))

"""Chapter 17 (serving) over the built site: every table recomputed from primer, and what each one shows held."""

import markdown
import numpy as np
import pytest
from part4_masks import leak_rows
from site_reader import LANGS, tables

from primer.attention import attention
from primer.chunked_prefill import chunked_prefill
from primer.decoding import generate
from primer.experiments.trained_decoder import trained_decoder
from primer.figures import mask_kit
from primer.figures import serving as figures
from primer.inputs import serving as inputs
from primer.inputs.decoder import EXPERIMENT
from primer.masks import causal_mask
from primer.paged_cache import PagedCache, wasted_slots
from primer.rounding import is_rounding
from primer.speculative import bigram_table, bigram_tree, branch, branch_logits, speculative_greedy, verify_tree
from primer.vocab import to_ids

PAGE = "17-serving.md"


def rendered(table_markdown):
    """Return the rows of a Markdown table as the page shows them."""
    return tables(markdown.markdown(table_markdown, extensions=["tables"]))[0]


def alignment_rows():
    n = inputs.N_PROMPT
    q, k, v = np.random.default_rng(inputs.SEED).standard_normal((3, n, inputs.D))
    one_shot = attention(q, k, v, causal_mask(n))[0]
    rows = []
    for c in inputs.CHUNKS:
        right = np.abs(chunked_prefill(q, k, v, c) - one_shot)
        left = np.abs(chunked_prefill(q, k, v, c, alignment="top_left") - one_shot)
        rows.append((c, right.max(), left.max(), int(sum(not is_rounding(r) for r in left)), n))
    return rows


def draft_setup():
    data, cfg, decoder = trained_decoder(**EXPERIMENT)
    table = bigram_table(to_ids(data.words, data.vocab), len(data.vocab))
    return data, cfg, decoder, table


def tree_rows():
    data, cfg, decoder, table = draft_setup()
    prefix = to_ids(inputs.TREE_PROMPT.split(), data.vocab)
    draft, parents = bigram_tree(table, int(prefix[-1]), inputs.TREE_BRANCHING)
    one_pass = verify_tree(prefix, draft, parents, decoder.params, cfg)
    rows = []
    for node in range(len(draft)):
        alone = branch_logits(prefix, draft, parents, node, decoder.params, cfg)
        words = [data.vocab[draft[i]] for i in branch(parents, node)]
        rows.append(
            (node, parents[node], data.vocab[draft[node]], words, np.abs(one_pass[len(prefix) + node] - alone).max())
        )
    return rows


def acceptance_rows():
    data, cfg, decoder, table = draft_setup()
    prompts = [to_ids(p.split(), data.vocab) for p in inputs.PROMPTS]
    greedy = [generate(p, decoder.params, cfg, inputs.N_NEW)[len(p) :] for p in prompts]
    rows = []
    for branching in inputs.BRANCHINGS:
        runs = [speculative_greedy(p, inputs.N_NEW, table, branching, decoder.params, cfg) for p in prompts]
        same = all(t.tolist() == g.tolist() for (t, _), g in zip(runs, greedy))
        rows.append((branching, len(bigram_tree(table, 0, branching)[0]), sum(n for _, n in runs), same))
    return rows


def paged_rows():
    rng = np.random.default_rng(inputs.PAGED_SEED)
    d = 4
    keys = [rng.standard_normal((n, d)) for n in inputs.SEQ_LENGTHS]
    values = [rng.standard_normal((n, d)) for n in inputs.SEQ_LENGTHS]
    cache = PagedCache(inputs.N_PAGES, inputs.PAGE_SIZE, d, d)
    for t in range(max(inputs.SEQ_LENGTHS)):
        for s, n in enumerate(inputs.SEQ_LENGTHS):
            if t < n:
                cache.append(s, keys[s][t], values[s][t])
    rows = []
    for s, n in enumerate(inputs.SEQ_LENGTHS):
        k, v = cache.gather(s)
        q = rng.standard_normal((1, d))
        full = np.ones((1, n), dtype=bool)
        same_out = np.array_equal(attention(q, k, v, full)[0], attention(q, keys[s], values[s], full)[0])
        rows.append(
            (s, n, cache.block_tables[s], np.array_equal(k, keys[s]) and np.array_equal(v, values[s]), same_out)
        )
    return rows


def waste_rows():
    lengths = np.array(inputs.BATCH_LENGTHS)
    return [(p, *wasted_slots(lengths, inputs.MAX_LEN, p).values()) for p in inputs.PAGE_SIZES]


@pytest.mark.parametrize("lang", LANGS)
def test_the_alignment_table_is_primers(read_page, lang):
    rows = alignment_rows()
    assert rendered(figures.alignment_table(rows, lang=lang)) in tables(read_page(lang, PAGE))


def test_bottom_right_equals_one_shot_and_top_left_only_in_one_chunk():
    for c, right, left, moved, n in alignment_rows():
        assert is_rounding(right), c
        if c == n:
            assert is_rounding(left) and moved == 0
        else:
            assert left > 0.5 and moved >= n // 2, (c, left, moved)  # "almost every output, as large as the values"


@pytest.mark.parametrize("lang", LANGS)
def test_one_pass_over_the_tree_equals_each_branch_alone_on_the_page(read_page, lang):
    rows = tree_rows()
    assert all(is_rounding(diff) for *_, diff in rows)
    assert len({parent for _, parent, *_ in rows}) > 1  # a tree, not a chain
    assert rendered(figures.tree_check_table(rows, lang=lang)) in tables(read_page(lang, PAGE))


@pytest.mark.parametrize("lang", LANGS)
def test_the_acceptance_table_is_primers(read_page, lang):
    rows = acceptance_rows()
    n_tokens = inputs.N_NEW * len(inputs.PROMPTS)
    assert rendered(figures.acceptance_table(rows, n_tokens, lang=lang)) in tables(read_page(lang, PAGE))


def test_what_the_prose_says_of_the_drafts():
    rows = {branching: (nodes, passes, same) for branching, nodes, passes, same in acceptance_rows()}
    n_tokens = inputs.N_NEW * len(inputs.PROMPTS)
    assert all(same for _, _, same in rows.values())  # every draft leaves greedy decoding's text
    assert all(passes < n_tokens for _, passes, _ in rows.values())
    assert rows[(1, 1)][1] == rows[(1, 1, 1)][1]  # a longer chain stops helping
    widest = max(rows, key=lambda b: rows[b][0])
    assert rows[widest][1] == min(p for _, p, _ in rows.values())  # the widest tree writes the most per pass


@pytest.mark.parametrize("lang", LANGS)
def test_the_paged_cache_gives_back_the_contiguous_one(read_page, lang):
    rows = paged_rows()
    assert all(same_rows and same_out for *_, same_rows, same_out in rows)
    tables_ = [row[2] for row in rows]
    assert sorted(p for t in tables_ for p in t) == list(range(sum(len(t) for t in tables_)))  # pages interleave
    assert any(t != list(range(t[0], t[0] + len(t))) for t in tables_)  # some sequence's pages are not consecutive
    assert rendered(figures.paged_table(rows, lang=lang)) in tables(read_page(lang, PAGE))


@pytest.mark.parametrize("lang", LANGS)
def test_the_waste_table_is_primers(read_page, lang):
    rows, lengths = waste_rows(), np.array(inputs.BATCH_LENGTHS)
    for p, contiguous, paged in rows:
        assert contiguous == int((inputs.MAX_LEN - lengths).sum())
        assert 0 <= paged < p * len(lengths)  # less than one page per request
    assert rendered(figures.waste_table(rows, int(lengths.sum()), lang=lang)) in tables(read_page(lang, PAGE))


@pytest.mark.parametrize("lang", LANGS)
def test_every_source_is_cited(read_page, lang):
    page = read_page(lang, PAGE)
    for url in (
        "https://github.com/pytorch/pytorch/issues/108108",
        "https://github.com/Dao-AILab/flash-attention/blob/main/README.md",
        "https://github.com/google/flax/pull/5592",
        "https://github.com/ggml-org/llama.cpp/issues/3137",
    ):
        assert url in page, url
    for paper in ("arXiv:2305.09781", "arXiv:2401.10774", "arXiv:2401.15077", "arXiv:2309.06180"):
        assert paper in page, paper


@pytest.mark.parametrize("lang", LANGS)
def test_ch17_mask_leaks_table_is_primers(read_page, lang):
    assert rendered(mask_kit.mask_leak_table(leak_rows(17), lang=lang)) in tables(read_page(lang, PAGE))

"""Chapter 16 (long context) over the built site: every table and figure recomputed from primer, and what they show."""

import html as htmllib
from dataclasses import replace

import markdown
import numpy as np
import pytest
from part4_masks import leak_rows
from site_reader import LANGS, page_figures, tables

from primer.attention import attention
from primer.counts import kv_cache_bytes
from primer.figures import long_context as figures
from primer.figures import mask_kit
from primer.inputs import long_context as inputs
from primer.kv_cache import ring_decode
from primer.layer_patterns import cache_shape, interleaved_kinds, layer_masks, lookback, pattern_cache_bytes, reachable
from primer.masks import causal_mask, chunked_mask, window_mask
from primer.sinks import sink_softmax
from primer.softmax import masked_softmax

PAGE = "16-long-context.md"


def rendered(table_markdown):
    """Return the rows of a Markdown table as the page shows them."""
    return tables(markdown.markdown(table_markdown, extensions=["tables"]))[0]


def stacks():
    return {
        name: layer_masks(inputs.N_REACH, interleaved_kinds(inputs.MAX_LAYERS, k), inputs.WINDOW_REACH)
        for name, k in inputs.PATTERNS.items()
    }


def lookbacks():
    return {
        name: [int(lookback(reachable(masks[:depth]))[-1]) for depth in range(1, inputs.MAX_LAYERS + 1)]
        for name, masks in stacks().items()
    }


def cache_rows():
    rows = []
    for name, (layers, kv_heads, head_dim, window, k, _) in inputs.RELEASED.items():
        cfg, kinds = cache_shape(layers, kv_heads, head_dim, window), interleaved_kinds(layers, k)
        ours = pattern_cache_bytes(cfg, kinds, inputs.CONTEXT, bytes_per_value=inputs.BYTES_PER_VALUE)
        full = kv_cache_bytes(replace(cfg, window=None), inputs.CONTEXT, bytes_per_value=inputs.BYTES_PER_VALUE)
        rows.append((name, "local", kinds.count("local"), kinds.count("global"), window, ours, full))
    for name, (layers, kv_heads, head_dim, chunk, k, _) in inputs.RELEASED_CHUNKED.items():
        cfg, kinds = cache_shape(layers, kv_heads, head_dim, None), interleaved_kinds(layers, k, local="chunked")
        ours = pattern_cache_bytes(cfg, kinds, inputs.CONTEXT, chunk=chunk, bytes_per_value=inputs.BYTES_PER_VALUE)
        full = kv_cache_bytes(cfg, inputs.CONTEXT, bytes_per_value=inputs.BYTES_PER_VALUE)
        rows.append((name, "chunked", kinds.count("chunked"), kinds.count("global"), chunk, ours, full))
    return rows


def sink_rows():
    scores = np.random.default_rng(inputs.SINK_SEED).normal(size=inputs.SINK_KEYS)
    scores[0] += inputs.SINK_BOOST
    n, last = inputs.SINK_KEYS, inputs.SINK_KEYS - 1
    window = window_mask(n, inputs.SINK_WINDOW)[last]
    return [
        ("causal", masked_softmax(scores, causal_mask(n)[last])),
        ("window", masked_softmax(scores, window)),
        ("window_sink", masked_softmax(scores, window_mask(n, inputs.SINK_WINDOW, sinks=1)[last])),
        ("sink_logit", sink_softmax(scores[None, :], inputs.SINK_LOGIT, window[None, :])[0]),
    ]


def ring_rows():
    q, k, v = np.random.default_rng(inputs.RING_SEED).normal(size=(3, inputs.RING_N, inputs.RING_D))
    rows = []
    for w in inputs.RING_WINDOWS:
        for sinks in (0, inputs.RING_SINKS):
            out, sizes = ring_decode(q, k, v, w, sinks=sinks)
            full = attention(q, k, v, window_mask(inputs.RING_N, w, sinks=sinks))[0]
            rows.append((w, sinks, np.abs(out - full).max(), sizes[0], sizes[-1], k.nbytes + v.nbytes))
    return rows


@pytest.mark.parametrize("lang", LANGS)
def test_ch16_tables_are_primers(read_page, lang):
    page_tables = tables(read_page(lang, PAGE))
    for table in (
        figures.lookback_table(lookbacks(), lang=lang),
        figures.cache_table(cache_rows(), lang=lang),
        figures.sink_table(sink_rows(), lang=lang),
        figures.ring_table(ring_rows(), lang=lang),
    ):
        assert rendered(table) in page_tables, table.splitlines()[0]


def test_ch16_numbers_say_what_the_prose_says():
    w, found = inputs.WINDOW_REACH, lookbacks()
    assert found["window_only"] == [layers * (w - 1) + 1 for layers in range(1, inputs.MAX_LAYERS + 1)]  # L(w - 1) + 1
    assert found["one_to_one"][1:] == [inputs.N_REACH] * (inputs.MAX_LAYERS - 1)  # the first global layer reaches 0
    for name, _, local, glob, span, ours, full in cache_rows():  # the share is about the global layers' fraction
        assert ours / full == pytest.approx((glob + local * span / inputs.CONTEXT) / (local + glob)), name
    llama = next(row for row in cache_rows() if row[0] == "Llama 4 Scout")  # 36 chunked layers of 8192, 12 global
    assert llama[1:5] == ("chunked", 36, 12, 8192) and llama[5] == (36 * 8192 + 12 * 32768) * 2 * 8 * 128 * 2
    weights = dict(sink_rows())
    assert weights["window"][0] == 0 and weights["window_sink"][0] > weights["causal"][0]  # the sink takes it back
    assert weights["sink_logit"].sum() < 1 and abs(weights["window"].sum() - 1) < 1e-12
    open_keys = weights["window"] > 0  # the sink logit keeps the window's proportions
    ratio = weights["sink_logit"][open_keys] / weights["window"][open_keys]
    assert np.ptp(ratio) < 1e-12
    for _, _, gap, first, last, every in ring_rows():
        assert gap < 1e-12 and first == last < every  # equals recompute; flat; below keeping every position


@pytest.mark.parametrize("lang", LANGS)
def test_ch16_chunked_mask_and_figures(read_page, lang):
    page = htmllib.unescape(read_page(lang, PAGE))
    shown = str(chunked_mask(inputs.CHUNK_SHOWN_N, inputs.CHUNK_SHOWN).astype(int))
    assert shown in page
    figs = page_figures(read_page(lang, PAGE))
    data = figs["fig-reach-layers"][0]
    names = list(inputs.PATTERNS)
    for depth in range(inputs.MAX_LAYERS):
        for col, masks in enumerate(stacks().values()):
            z = np.array(data[depth * len(names) + col]["z"], dtype=bool)
            assert (z == reachable(masks[: depth + 1])).all()
    held = figs["fig-cache-held"][0]
    for s, size in enumerate(inputs.HELD_SIZES):
        window, chunked = held[3 * s + 1]["y"], held[3 * s + 2]["y"]
        assert max(window) == max(chunked) == size  # the same at most
        assert [int(c) for c in chunked] == list(chunked_mask(inputs.HELD_N, size).sum(axis=1))
        assert chunked[size] == 1  # the cache empties at the chunk boundary
    ring = figs["fig-ring-memory"][0]
    for t in range(len(inputs.RING_WINDOWS)):
        assert len(set(ring[2 * t + 1]["y"])) == 1 and ring[2 * t]["y"][-1] > ring[2 * t + 1]["y"][-1]


@pytest.mark.parametrize("lang", LANGS)
def test_ch16_sections_and_sources(read_page, lang):
    page = read_page(lang, PAGE)
    for heading in {"zh": ("十几行 numpy", "小结"), "en": ("A dozen lines of numpy", "Summary")}[lang]:
        assert f">{heading}<" in page, heading
    for key in (
        "gemma2-config",
        "gemma2-9b",
        "gemma3-config",
        "gemma3-4b",
        "gptoss-model",
        "xiao2023",
        "llama4-config",
    ):
        assert f'id="fn:{key}"' in page, key
    assert 'href="../05-mask/"' in page and 'href="../11-kv-memory/"' in page


@pytest.mark.parametrize("lang", LANGS)
def test_ch16_mask_leaks_table_is_primers(read_page, lang):
    assert rendered(mask_kit.mask_leak_table(leak_rows(16), lang=lang)) in tables(read_page(lang, PAGE))

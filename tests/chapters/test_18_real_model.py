"""Chapter 18 (a real model under the mask) over the built site: every table recomputed from primer on the real
weights, the claims the prose makes about them, and the attention maps' slider over every layer."""

import markdown
import numpy as np
import pytest
from site_reader import LANGS, tables

from primer import pretrained
from primer.figures import real_model as figures
from primer.inputs.real_model import (
    CACHE_PROMPT,
    DOC_A,
    DOC_B,
    KIT_DOC_IDS,
    KIT_LAYER,
    KIT_ROWS,
    KIT_SINKS,
    KIT_WINDOW,
    N_TOKENS,
    PAD,
    PAD_TOKEN,
    PADDED,
    PASSAGE,
    SCORED_FROM,
    SENTENCE,
    SINKS,
    WINDOWS,
)
from primer.pretrained import measure

PAGE = "18-real-model.md"
BOUNDS = measure.GAP_BOUNDS


def rendered(table_markdown):
    """Return the rows of a Markdown table as the page shows them."""
    return tables(markdown.markdown(table_markdown, extensions=["tables"]))[0]


def windows():
    return measure.window_losses(PASSAGE, N_TOKENS, WINDOWS, SINKS, SCORED_FROM)


def expected_tables(lang):
    passage_share = measure.sink_shares(measure.attention_maps(PASSAGE)[1])
    return {
        "model": figures.model_table(pretrained.load(), lang),
        "sinks": figures.share_table(passage_share, lang),
        "windows": figures.window_table(windows(), WINDOWS, SINKS, lang),
        "packing": figures.packing_table(measure.packing(DOC_A, DOC_B), BOUNDS, lang),
        "padding": figures.padding_table(measure.left_padding(PADDED, PAD, PAD_TOKEN), BOUNDS, lang),
        "full": figures.bidirectional_table(measure.bidirectional(PASSAGE, N_TOKENS), lang),
        "cache": figures.cache_table(measure.cache_gap(PASSAGE, N_TOKENS, CACHE_PROMPT), BOUNDS, lang),
        "kit": figures.kit_table(
            measure.kit_on_layer(KIT_LAYER, KIT_ROWS)
            | measure.kit_masks_on_layer(KIT_LAYER, KIT_WINDOW, KIT_SINKS, KIT_DOC_IDS),
            lang,
        ),
    }


@pytest.mark.parametrize("lang", LANGS)
def test_every_table_is_primers(read_page, lang):
    page_tables = tables(read_page(lang, PAGE))
    for name, table in expected_tables(lang).items():
        assert rendered(table) in page_tables, name


def test_the_model_is_the_pinned_one():
    model = pretrained.load()
    assert (model.cfg.n_layers, model.cfg.n_heads, model.cfg.n_kv_heads, model.cfg.d_model) == (30, 9, 3, 576)
    assert model.metadata["general.license"] == "apache-2.0"
    assert model.metadata["general.organization"] == "HuggingFaceTB"


def test_the_first_layers_spread_their_attention_and_most_later_ones_sink():
    per_layer = measure.sink_shares(measure.attention_maps(PASSAGE)[1]).mean(axis=1)  # [30]
    assert per_layer[:3].max() < np.median(per_layer[3:])
    assert np.median(per_layer[3:]) > 0.3
    assert np.sum(per_layer[3:] > per_layer[:3].max()) > len(per_layer[3:]) / 2  # "most later layers"


def test_sinks_recover_most_of_what_the_window_loses():
    losses = windows()
    window, sinks, causal = np.array(losses["window"]), np.array(losses["sinks"]), losses["causal"]
    assert (sinks < window).all()
    assert ((window - sinks) / (window - causal) > 0.5).all()  # most of the gap to the causal mask
    assert (np.diff(window - sinks) < 0).all()  # the smaller the window, the more the sinks matter


def test_the_document_mask_gives_the_document_back_its_own_logits():
    result = measure.packing(DOC_A, DOC_B)
    absolute, relative = result["gap"]
    assert absolute < BOUNDS[0] and relative < BOUNDS[1]
    assert abs(result["document"] - result["alone"]) < 1e-3
    assert result["packed"] != pytest.approx(result["alone"], abs=1e-2)  # the causal mask reads the first document
    assert result["packed"] < result["alone"]  # "did not hurt this model's loss on these two texts"


def test_left_padding_three_ways():
    result = measure.left_padding(PADDED, PAD, PAD_TOKEN)
    assert result["reference_top"] == " Berlin"
    for way in ("correct", "not_shifted"):  # rounding only
        assert result[way]["gap"][0] < BOUNDS[0] and result[way]["gap"][1] < BOUNDS[1], way
        assert result[way]["top"] == " Berlin", way
    assert result["no_mask"]["gap"][1] > 0.1  # "a sizeable part of their range"
    assert result["no_mask"]["top"] != " Berlin"


def test_the_full_mask_leaks_the_next_token():
    result = measure.bidirectional(PASSAGE, N_TOKENS)
    assert result["full"]["loss"] < result["causal"]["loss"]
    assert result["full"]["top1"] > result["causal"]["top1"]
    assert result["full"]["own"] < 0.1  # it does not copy its own token


def test_the_cache_equals_the_full_pass_to_float32_rounding():
    result = measure.cache_gap(PASSAGE, N_TOKENS, CACHE_PROMPT)
    assert result["steps"] == N_TOKENS - CACHE_PROMPT
    assert result["gap"][0] < BOUNDS[0] and result["gap"][1] < BOUNDS[1]


def test_the_kit_passes_the_real_layer_at_its_dtypes_tolerance_and_false_alarms_at_float64s_in_float32():
    found = measure.kit_on_layer(KIT_LAYER, KIT_ROWS)
    assert found["check_causal", "float64"] == [] and found["check_cache", "float64"] == []
    assert found["check_causal", "float32"] == [] and found["check_cache", "float32"] == []
    assert len(found["check_cache", "float32, tol=1e-09"]) == KIT_ROWS  # "flags every step"
    assert {p.kind for p in found["check_cache", "float32, tol=1e-09"]} == {"cache"}
    masks = measure.kit_masks_on_layer(KIT_LAYER, KIT_WINDOW, KIT_SINKS, KIT_DOC_IDS)  # the chapter's own masks
    assert len(masks) == 2 and all(problems == [] for problems in masks.values())


def test_the_attention_maps_slider_picks_every_layer():
    tokens, attn = measure.attention_maps(SENTENCE)
    fig = figures.attention_maps(tokens, attn)
    assert len(fig.layout.sliders[0].steps) == attn.shape[0] == 30
    rows = attn.sum(axis=-1)
    assert np.allclose(rows, 1, atol=1e-5)  # every query's weights sum to 1 (float32)
    assert np.triu(attn, k=1).max() == 0  # the causal mask: no weight on the future

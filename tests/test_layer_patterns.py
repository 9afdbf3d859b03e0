import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from primer.layer_patterns import cached_tokens, interleaved_kinds, layer_masks, lookback, reachable
from primer.masks import causal_mask, window_mask


def closure_by_walking(masks):  # the reach, one path step at a time
    n = masks[0].shape[0]
    reach = [{i} for i in range(n)]
    for m in masks:
        reach = [{j for k in range(n) if m[i, k] or k == i for j in reach[k]} for i in range(n)]
    return reach


@given(st.integers(1, 24), st.integers(1, 8), st.integers(1, 5), st.integers(0, 3))
def test_reachable_is_the_set_of_chains_through_the_layers(n, w, n_layers, k):
    masks = layer_masks(n, interleaved_kinds(n_layers, k), w)
    reach = reachable(masks)
    assert [set(np.flatnonzero(r).tolist()) for r in reach] == closure_by_walking(masks)


@given(st.integers(1, 40), st.integers(1, 8), st.integers(1, 6))
def test_window_only_reaches_one_window_per_layer(n, w, n_layers):
    reach = reachable(layer_masks(n, interleaved_kinds(n_layers, None), w))
    assert lookback(reach).tolist() == [min(i + 1, n_layers * (w - 1) + 1) for i in range(n)]


@given(st.integers(1, 40), st.integers(1, 8), st.integers(0, 5))
def test_one_global_layer_reaches_everything_before(n, w, k):
    kinds = interleaved_kinds(k + 1, k)
    assert kinds[-1] == "global"
    assert np.array_equal(reachable(layer_masks(n, kinds, w)), causal_mask(n))


def test_patterns():
    assert interleaved_kinds(4, 1) == ("local", "global", "local", "global")
    assert interleaved_kinds(12, 5).count("global") == 2 and interleaved_kinds(6, 5)[:5] == ("local",) * 5
    assert interleaved_kinds(2, 0) == ("global", "global")


def test_reachable_of_one_mask_is_the_mask_with_its_diagonal():
    m = window_mask(6, 2)
    assert np.array_equal(reachable(m), m)


def test_cached_tokens():
    assert cached_tokens(interleaved_kinds(6, 5), 1000, 10) == 5 * 10 + 1000
    assert cached_tokens(("local",), 4, 10) == 4


def test_pattern_cache_bytes_is_chapter_11s_count_layer_by_layer():
    from primer.config import Config
    from primer.counts import kv_cache_bytes
    from primer.layer_patterns import pattern_cache_bytes

    cfg = Config(n_layers=6, n_heads=4, d_model=16, window=8)
    kinds = interleaved_kinds(6, 5)
    per_token = 2 * cfg.n_kv_heads * cfg.d_head * 2  # K and V, fp16
    assert pattern_cache_bytes(cfg, kinds, 100) == cached_tokens(kinds, 100, 8) * per_token
    assert pattern_cache_bytes(cfg, ("local",) * 6, 100) == kv_cache_bytes(cfg, 100)  # window-only: the old count
    assert pattern_cache_bytes(cfg, ("global",) * 6, 100) == kv_cache_bytes(Config(n_layers=6, d_model=16), 100)


def test_a_chunked_layer_caches_at_most_its_chunk_and_masks_as_chunked_mask():
    from primer.config import Config
    from primer.counts import kv_cache_bytes
    from primer.layer_patterns import pattern_cache_bytes
    from primer.masks import chunked_mask

    kinds = interleaved_kinds(8, 3, local="chunked")
    assert kinds == ("chunked",) * 3 + ("global",) + ("chunked",) * 3 + ("global",)
    assert cached_tokens(kinds, 100, 1, chunk=16) == 6 * 16 + 2 * 100
    assert cached_tokens(kinds, 10, 1, chunk=16) == 8 * 10  # a text shorter than a chunk: every token
    cfg = Config(n_layers=8, d_model=16, n_heads=2, max_len=None)
    per_token = kv_cache_bytes(Config(n_layers=1, d_model=16, n_heads=2, max_len=None), 1)
    assert pattern_cache_bytes(cfg, kinds, 100, chunk=16) == cached_tokens(kinds, 100, 1, chunk=16) * per_token
    for mask in layer_masks(12, kinds, 3, chunk=4)[:3]:
        assert np.array_equal(mask, chunked_mask(12, 4))
    # at every position, the newest query of a chunked layer reads at most chunk keys: what its cache must hold
    assert chunked_mask(100, 16).sum(axis=1).max() == 16

"""One sliding-window convention: the mask (chapter 5) and the KV-cache memory model (chapter 11) agree."""

from dataclasses import replace

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from primer import window_mask
from primer.config import Config
from primer.counts import kv_cache_bytes
from primer.published import model


def bytes_of_keys_the_last_query_reads(cfg, n_tokens, bytes_per_value=2):
    """K and V of every key the newest query may read under window_mask, over all layers and KV heads."""
    read = int(window_mask(n_tokens, cfg.window)[-1].sum())
    return 2 * cfg.n_layers * cfg.n_kv_heads * cfg.d_head * read * bytes_per_value


@given(st.integers(1, 60), st.integers(1, 60))
def test_cache_bytes_equal_the_bytes_of_the_keys_the_last_query_reads(n_tokens, window):
    cfg = Config(window=window)
    assert kv_cache_bytes(cfg, n_tokens) == bytes_of_keys_the_last_query_reads(cfg, n_tokens)


def test_mistral_reads_exactly_its_published_sliding_window_of_keys():
    mistral = model("Mistral-7B").config
    n = 2 * mistral.window
    last_row = window_mask(n, mistral.window)[-1]
    assert last_row.sum() == mistral.window == 4096  # released config.json: "sliding_window": 4096
    assert last_row[-1] and not last_row[n - 1 - mistral.window]  # itself in, the key one step too old out
    assert kv_cache_bytes(mistral, n) == kv_cache_bytes(replace(mistral, window=None), mistral.window)


def test_a_window_as_long_as_the_sequence_is_plain_causal_and_caches_everything():
    cfg = Config(window=8)
    assert np.array_equal(window_mask(8, 8), np.tril(np.ones((8, 8), bool)))
    assert kv_cache_bytes(cfg, 8) == kv_cache_bytes(replace(cfg, window=None), 8)

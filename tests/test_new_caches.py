"""The caches the newer masks need: a prefix-LM prompt decoded from a KV cache, and a ring buffer for a window."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from primer import attention
from primer.config import Config
from primer.kv_cache import KVCache, RingCache, generate_prefix_lm, prefill_prefix_lm, ring_decode
from primer.masks import prefix_lm_mask, window_mask
from primer.rounding import is_rounding
from primer.transformer import embed, init_stack, logits, stack

CFG = Config(d_model=16, n_heads=2, n_layers=2, max_len=24)


# ---- prefix-LM: the suffix decodes from a cache exactly


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 10), st.data(), st.integers(1, 6), st.integers(0, 2**16))
def test_cached_generation_after_a_prefix_equals_recompute_under_the_prefix_mask(n, data, n_new, seed):
    prefix = data.draw(st.integers(0, n))
    params = init_stack(seed % 500, CFG)
    prompt = np.random.default_rng(seed).integers(0, CFG.vocab_size, n)
    cached_tokens, cached_logits = generate_prefix_lm(prompt, prefix, n_new, params, CFG)
    tokens, recomputed = generate_prefix_lm(prompt, prefix, n_new, params, CFG, cached=False)
    assert np.array_equal(cached_tokens, tokens)
    assert is_rounding(cached_logits - recomputed)


def test_the_prefix_reads_both_ways_so_changing_a_later_prefix_token_moves_an_earlier_one():
    params = init_stack(0, CFG)
    prompt = np.array([1, 2, 3, 4, 5, 6])
    changed = prompt.copy()
    changed[2] = 9
    for prefix, earlier_moves in ((4, True), (0, False)):
        a = prefill_prefix_lm(prompt, prefix, params, CFG, KVCache(CFG))
        b = prefill_prefix_lm(changed, prefix, params, CFG, KVCache(CFG))
        assert (np.abs(a[:2] - b[:2]).max() > 1e-3) == earlier_moves  # positions 0, 1 read position 2?


def test_prefill_under_the_prefix_mask_is_the_plain_pass():
    params = init_stack(1, CFG)
    prompt = np.arange(7) % CFG.vocab_size
    h, _ = stack(embed(prompt, params, CFG), params, CFG, prefix_lm_mask(7, 3))
    assert is_rounding(prefill_prefix_lm(prompt, 3, params, CFG, KVCache(CFG)) - logits(h, params))


# ---- the ring buffer: w slots, slot = position mod w


@given(st.integers(1, 40), st.integers(1, 10), st.integers(0, 4), st.integers(0, 2**16))
def test_ring_decoding_equals_recompute_under_the_window_mask(n, w, sinks, seed):
    rng = np.random.default_rng(seed)
    q, k, v = rng.normal(size=(n, 4)), rng.normal(size=(n, 4)), rng.normal(size=(n, 3))
    out, sizes = ring_decode(q, k, v, w, sinks=sinks)
    assert is_rounding(out - attention(q, k, v, window_mask(n, w, sinks=sinks))[0])
    assert (sizes == sizes[0]).all()  # memory flat, however long the text


def test_ring_slots_are_position_mod_window():
    cache = RingCache(3, 1, 1)
    assert [cache.slot(t) for t in range(7)] == [0, 1, 2, 0, 1, 2, 0]
    for t in range(5):
        cache.append([t], [t])
    assert cache.positions.tolist() == [3, 4, 2]
    with_sinks = RingCache(3, 1, 1, sinks=2)
    assert [with_sinks.slot(t) for t in range(6)] == [0, 1, 2 + 2, 2 + 0, 2 + 1, 2 + 2]

from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from site_reader import load_snippet

from primer import attention, causal_mask
from primer.config import Config
from primer.decoding import generate
from primer.inputs.kv_cache import APPENDED, PROMPT, SEED
from primer.kv_cache import KVCache, decode_cached, decode_step, layer_kv, new_row_dependence, old_rows_drift
from primer.rounding import BOUND, is_rounding
from primer.transformer import decode, init_stack

CFG = Config()
PARAMS = init_stack(SEED, CFG)


# ---- cached decoding is exact: it equals recomputing everything


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 4), st.sampled_from([1, 2, 4, 8]), st.integers(1, 40), st.integers(0, 2**32 - 1))
def test_cached_decoding_equals_full_recompute(n_layers, n_heads, n, seed):
    cfg = Config(n_layers=n_layers, n_heads=n_heads, d_model=16, max_len=40)
    params = init_stack(seed % 1000, cfg)
    tokens = np.random.default_rng(seed).integers(0, cfg.vocab_size, n)
    full = decode(tokens, params, cfg)
    cache = KVCache(cfg)
    cached = np.vstack([decode_cached(tokens[i : i + 1], params, cfg, cache) for i in range(n)])
    assert cache.length == n
    assert np.abs(cached - full).max() < 1e-12


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=1, max_size=5), st.integers(0, 2**32 - 1))
def test_prefill_in_chunks_equals_full_recompute(chunks, seed):
    tokens = np.random.default_rng(seed).integers(0, CFG.vocab_size, sum(chunks))
    cache = KVCache(CFG)
    parts, start = [], 0
    for size in chunks:
        parts.append(decode_cached(tokens[start : start + size], PARAMS, CFG, cache))
        start += size
    assert np.abs(np.vstack(parts) - decode(tokens, PARAMS, CFG)).max() < 1e-12


@settings(max_examples=20, deadline=None)
@given(st.lists(st.integers(0, CFG.vocab_size - 1), min_size=1, max_size=8), st.integers(0, 12), st.integers(0, 50))
def test_cached_generation_picks_the_same_tokens(prompt, n_new, seed):
    params = init_stack(seed, CFG)
    assert np.array_equal(
        generate(np.array(prompt), params, CFG, n_new, cached=True), generate(np.array(prompt), params, CFG, n_new)
    )


def test_a_cached_step_computes_only_the_new_row():
    cache = KVCache(CFG)
    decode_cached(np.array(PROMPT), PARAMS, CFG, cache)
    ops = Counter()
    decode_cached(np.array([5]), PARAMS, CFG, cache, ops)
    t = len(PROMPT) + 1
    assert ops == Counter({"kv_rows": CFG.n_layers, "q_rows": CFG.n_layers, "scores": CFG.n_layers * CFG.n_heads * t})


def test_the_cache_holds_k_and_v_of_every_layer():
    cache = KVCache(CFG)
    decode_cached(np.array(PROMPT), PARAMS, CFG, cache)
    kvs, _ = layer_kv(np.array(PROMPT), PARAMS, CFG, causal_mask(len(PROMPT)))
    assert len(cache.k) == len(cache.v) == CFG.n_layers
    for i, (k, v) in enumerate(kvs):
        assert cache.k[i].shape == (CFG.n_heads, len(PROMPT), CFG.d_head)
        assert np.allclose(cache.k[i], k, atol=1e-13) and np.allclose(cache.v[i], v, atol=1e-13)
    assert cache.nbytes == 2 * CFG.n_layers * CFG.n_heads * CFG.d_head * len(PROMPT) * 8


# ---- why the cache is valid: the causal mask

# K for n rows and for n + 1 rows come from products of different shapes, which a BLAS may round
# differently: "did not move" means "moved by rounding only", never bit for bit.


def test_appending_a_token_moves_nothing_old_under_the_causal_mask():
    drift = old_rows_drift(np.array(PROMPT), APPENDED, PARAMS, CFG, "decoder")
    assert is_rounding(drift["k"]) and is_rounding(drift["v"]) and is_rounding(drift["logits"])


def test_appending_a_token_moves_old_positions_under_a_bidirectional_mask():
    drift = old_rows_drift(np.array(PROMPT), APPENDED, PARAMS, CFG, "encoder")
    assert is_rounding(drift["k"][0]) and is_rounding(drift["v"][0])  # layer 1 reads only the embeddings
    assert all(d > 1e-3 for d in drift["k"][1:] + drift["v"][1:])  # every later layer has moved: a cache would be stale
    assert drift["logits"] > 1e-3


# ---- why only K and V: the new row needs the new query and every key and value


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 10), st.integers(1, 6), st.integers(0, 2**32 - 1))
def test_old_queries_never_matter_to_the_new_row(n, d, seed):
    rng = np.random.default_rng(seed)
    q, k, v = rng.normal(size=(n, d)), rng.normal(size=(n, d)), rng.normal(size=(n, d))
    change = new_row_dependence(q, k, v, seed=seed % 100)
    assert is_rounding(change["q"])
    assert change["k"] > BOUND and change["v"] > BOUND


# ---- the single-head step, and the page's dozen lines of numpy


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 9), st.integers(1, 6), st.integers(1, 5), st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_decode_step_equals_the_last_row_of_causal_attention(n, d, d_k, d_v, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    w_q, w_k, w_v = rng.normal(size=(d, d_k)), rng.normal(size=(d, d_k)), rng.normal(size=(d, d_v))
    k_cache, v_cache = np.zeros((0, d_k)), np.zeros((0, d_v))
    rows = []
    for x_new in x:
        out, k_cache, v_cache = decode_step(x_new, k_cache, v_cache, w_q, w_k, w_v)
        rows.append(out)
    full, _ = attention(x @ w_q, x @ w_k, x @ w_v, causal_mask(n))
    assert k_cache.shape == (n, d_k) and v_cache.shape == (n, d_v)
    assert np.allclose(np.array(rows), full, atol=1e-12)


def test_core_numpy_logits_at_every_step_equal_primers_causal_attention():
    core = load_snippet("10-kv-cache/core_numpy.py")
    x, w_q, w_k, w_v, w_out = (core[name] for name in ("x", "w_q", "w_k", "w_v", "w_out"))
    want = attention(x @ w_q, x @ w_k, x @ w_v, causal_mask(len(x)))[0] @ w_out  # [n, vocab]
    assert core["cached"].shape == want.shape and np.abs(core["cached"] - want).max() < 1e-12
    assert np.abs(core["full"] - want).max() < 1e-12


def test_core_numpy_decode_step_equals_primer_on_random_inputs():
    core = load_snippet("10-kv-cache/core_numpy.py")
    rng = np.random.default_rng(11)
    for t in range(0, 8):
        d, d_k, d_v = rng.integers(1, 7, 3)
        x_new = rng.normal(size=d)
        k_cache, v_cache = rng.normal(size=(t, d_k)), rng.normal(size=(t, d_v))
        w = rng.normal(size=(d, d_k)), rng.normal(size=(d, d_k)), rng.normal(size=(d, d_v))
        ours = core["decode_step"](x_new, k_cache, v_cache, *w)
        theirs = decode_step(x_new, k_cache, v_cache, *w)
        for a, b in zip(ours, theirs):
            assert a.shape == b.shape and np.allclose(a, b, atol=1e-12)

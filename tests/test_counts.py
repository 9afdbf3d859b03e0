"""Counts against independent oracles: plain loops that do the work, real arrays, and numpy's own nbytes."""

from collections import Counter
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from site_reader import load_snippet

from primer.config import Config
from primer.counts import (
    PARTS,
    attention_cost,
    cost_ratio,
    cost_row,
    count_params,
    count_values,
    format_bytes,
    kv_cache_bytes,
    predicted_ops,
    rnn_cost,
    serial_steps,
    speedup,
    total_rows,
    total_scores,
)
from primer.decoding import generate, measured_ops
from primer.kv_cache import KVCache, decode_cached
from primer.published import model
from primer.transformer import init_stack

small = st.integers(1, 6)


# ---- one layer: plain-Python loops that count each multiply-add as they compute


def loop_attention_scores(q, k):  # [n, d], [n, d] -> ([n, n], multiply-adds)
    n, d = q.shape
    s, ops = np.zeros((n, n)), 0
    for i in range(n):
        for j in range(n):
            for c in range(d):
                s[i, j] += q[i, c] * k[j, c]
                ops += 1
    return s, ops


def loop_rnn(w, x):  # [d, d], [n, d] -> ([n, d], multiply-adds of the recurrence W h)
    n, d = x.shape
    h, ops, out = np.zeros(d), 0, np.zeros((n, d))
    for t in range(n):
        new = x[t].copy()
        for r in range(d):
            for c in range(d):
                new[r] += w[r, c] * h[c]
                ops += 1
        h = out[t] = np.tanh(new)
    return out, ops


@given(small, small)
def test_layer_costs_equal_the_work_of_a_loop(n, d):
    rng = np.random.default_rng(n * 7 + d)
    q, k, x, w = rng.normal(size=(n, d)), rng.normal(size=(n, d)), rng.normal(size=(n, d)), rng.normal(size=(d, d))
    scores, attn_ops = loop_attention_scores(q, k)
    states, rnn_ops = loop_rnn(w, x)
    assert np.allclose(scores, q @ k.T)  # the loop really computes the scores
    assert np.isfinite(states).all()
    assert attention_cost(n, d) == attn_ops
    assert rnn_cost(n, d) == rnn_ops
    assert cost_ratio(n, d) == pytest.approx(attn_ops / rnn_ops)


@given(small)
def test_serial_steps_are_the_loop_iterations_that_wait_for_the_previous_one(n):
    assert serial_steps(n, "rnn") == n  # h_t needs h_{t-1}: loop_rnn cannot run two steps at once
    assert serial_steps(n, "self-attention") == 1  # every score reads only the inputs


def test_chapter_3_cost_table():
    assert f"{cost_ratio(100, 512):.2f}" == "0.20" and f"{cost_ratio(1000, 512):.2f}" == "1.95"
    assert cost_row(512, 512)["attention"] == cost_row(512, 512)["rnn"]
    assert cost_row(100, 512) == {
        "n": 100,
        "d": 512,
        "attention": 5_120_000,
        "rnn": 26_214_400,
        "ratio": 100 / 512,
        "attention_steps": 1,
        "rnn_steps": 100,
    }


# ---- generation: scores counted by simulating every step


def loop_scores(n_steps, cached, n_layers, n_heads):
    count = 0
    for step in range(1, n_steps + 1):  # the prefix holds `step` tokens
        queries = [step - 1] if cached else range(step)
        for _ in range(n_layers * n_heads):
            for _q in queries:
                for _k in range(step):
                    count += 1
    return count


@given(st.integers(0, 40), st.booleans(), st.integers(1, 3), st.integers(1, 3))
def test_closed_forms_equal_a_step_by_step_count(n, cached, layers, heads):
    assert total_scores(n, cached, layers, heads) == loop_scores(n, cached, layers, heads)


def test_the_ratio_at_1000_steps_is_667():
    assert speedup(1000) == 667
    assert total_scores(1000, cached=False) == 333_833_500 and total_scores(1000, cached=True) == 500_500


@given(st.integers(1, 5000))
def test_the_ratio_is_2n_plus_1_over_3(n):
    assert speedup(n) == Fraction(2 * n + 1, 3)


@settings(max_examples=15, deadline=None)
@given(st.integers(1, 3), st.sampled_from([1, 2, 4]), st.integers(1, 24), st.booleans())
def test_primer_counts_what_the_cost_model_predicts(layers, heads, n, cached):
    cfg = Config(n_layers=layers, n_heads=heads, d_model=8, max_len=24)
    params = init_stack(3, cfg)
    assert measured_ops(n, params, cfg, cached) == predicted_ops(n, cfg, cached)
    ops = Counter()
    generate(np.array([1]), params, cfg, n, cached=cached, ops=ops)
    assert ops["scores"] == loop_scores(n, cached, layers, heads)


# ---- parameters: the formula against the arrays primer really allocates

configs = st.builds(
    Config,
    d_model=st.sampled_from([8, 16]),
    n_heads=st.sampled_from([1, 2, 4]),
    d_ff=st.integers(1, 40),
    n_layers=st.integers(1, 3),
    vocab_size=st.integers(2, 50),
    max_len=st.integers(1, 16),
)


@settings(max_examples=30, deadline=None)
@given(configs)
def test_parameter_counts_equal_the_weights_of_primers_own_model(cfg):
    enc, dec = init_stack(0, cfg), init_stack(1, cfg, cross=True)
    table = cfg.max_len * cfg.d_model  # the sinusoidal table is stored but not learned
    assert sum(count_params(cfg, "decoder").values()) == count_values(enc) - table
    assert sum(count_params(cfg, "encoder").values()) == count_values(enc) - table
    shared = cfg.vocab_size * cfg.d_model  # an encoder-decoder shares one embedding matrix
    assert (
        sum(count_params(cfg, "encoder-decoder").values()) == count_values(enc) + count_values(dec) - 2 * table - shared
    )


def test_count_weights_counts_every_number_once():
    tree = {"a": np.zeros((3, 4)), "b": [np.zeros(5), {"c": np.zeros((2, 2, 2))}], "d": ()}
    assert count_values(tree) == 12 + 5 + 8


def test_bert_base_by_hand():
    d, ff, layers = 768, 3072, 12
    embeddings = (30522 + 512 + 2) * d + 2 * d  # token, position, segment; embedding LayerNorm
    block = 4 * (d * d + d) + 2 * d + (d * ff + ff) + (ff * d + d) + 2 * d
    m = model("BERT-base")
    assert sum(count_params(m.config, m.machine).values()) == embeddings + layers * block + (d * d + d)


def test_gpt_1_by_hand():
    d, ff = 768, 3072
    block = (d * 3 * d + 3 * d) + (d * d + d) + 2 * d + (d * ff + ff) + (ff * d + d) + 2 * d
    m = model("GPT-1")
    assert sum(count_params(m.config, m.machine).values()) == (40478 + 512) * d + 12 * block  # output tied


def test_t5_base_by_hand():
    d, ff, h = 768, 3072, 12
    enc_block = 4 * d * d + d + 2 * d * ff + d  # no biases; scale-only norms
    dec_block = 2 * 4 * d * d + 2 * d + 2 * d * ff + d
    extras = 2 * 32 * h + 2 * d  # relative bias and final norm per stack
    m = model("T5-base")
    assert sum(count_params(m.config, m.machine).values()) == 32128 * d + 12 * enc_block + 12 * dec_block + extras


def test_parts_come_in_table_order_and_untying_adds_one_matrix():
    m = model("GPT-1")
    parts = count_params(m.config, m.machine)
    assert tuple(parts) == PARTS and all(isinstance(v, int) and v >= 0 for v in parts.values())
    untied = count_params(replace(m.config, tied_output=False), m.machine)
    assert sum(untied.values()) - sum(parts.values()) == m.config.vocab_size * m.config.d_model


# ---- KV-cache bytes: numpy's nbytes of the arrays a cache holds


def numpy_cache_bytes(cfg, n_tokens, batch, dtype):
    kept = n_tokens if cfg.window is None else min(n_tokens, cfg.window)
    one = np.broadcast_to(np.zeros((), dtype), (batch, cfg.n_kv_heads, kept, cfg.d_head))  # no memory allocated
    return 2 * cfg.n_layers * one.nbytes


@given(
    st.integers(1, 100),
    st.sampled_from([(8, 8), (8, 2), (64, 8), (32, 32)]),
    st.sampled_from([16, 64, 128]),
    st.integers(0, 10**5),
    st.integers(1, 16),
    st.sampled_from([np.float16, np.float32, np.float64]),
    st.one_of(st.none(), st.integers(1, 5000)),
)
def test_bytes_equal_numpys_nbytes(layers, heads, d_head, tokens, batch, dtype, window):
    n_heads, n_kv = heads
    cfg = Config(n_layers=layers, n_heads=n_heads, n_kv_heads=n_kv, d_model=n_heads * d_head, window=window)
    assert kv_cache_bytes(cfg, tokens, batch=batch, bytes_per_value=np.dtype(dtype).itemsize) == numpy_cache_bytes(
        cfg, tokens, batch, dtype
    )


@settings(max_examples=20, deadline=None)
@given(
    st.integers(1, 3),
    st.sampled_from([1, 2, 4]),
    st.integers(1, 20),
    st.sampled_from([np.float64, np.float32, np.float16]),
)
def test_bytes_equal_the_nbytes_of_primers_cache(layers, heads, n, dtype):
    cfg = Config(n_layers=layers, n_heads=heads, d_model=8, max_len=20)
    cache = KVCache(cfg, dtype=dtype)
    decode_cached(np.arange(n) % cfg.vocab_size, init_stack(0, cfg), cfg, cache)
    assert cache.nbytes == kv_cache_bytes(cfg, n, bytes_per_value=np.dtype(dtype).itemsize)


def test_a_sliding_window_caps_the_cache_and_grouped_query_attention_divides_it():
    mistral, llama70 = model("Mistral-7B").config, model("Llama-2-70B").config
    assert kv_cache_bytes(mistral, 32768) == kv_cache_bytes(mistral, 4096) == 512 * 1024**2
    assert kv_cache_bytes(replace(mistral, window=None), 32768) == 8 * kv_cache_bytes(mistral, 32768)
    assert kv_cache_bytes(replace(llama70, n_kv_heads=64), 4096) == 8 * kv_cache_bytes(llama70, 4096) == 10 * 1024**3


def test_the_pages_plain_numpy_formula_equals_primer():
    core = load_snippet("11-kv-memory/core_numpy.py")
    rng = np.random.default_rng(5)
    for _ in range(50):
        layers, kv, d_head, n = (int(a) for a in rng.integers(1, 100, 4))
        batch, nbytes = int(rng.integers(1, 9)), int(rng.choice([1, 2, 4]))
        cfg = Config(n_layers=layers, n_heads=kv, d_model=kv * d_head)
        assert core["kv_cache_bytes"](layers, kv, d_head, n, batch, nbytes) == kv_cache_bytes(
            cfg, n, batch=batch, bytes_per_value=nbytes
        )


@pytest.mark.parametrize(
    "n, text",
    [
        (0, "0 B"),
        (1000, "1000 B"),
        (1024, "1 KiB"),
        (1536, "1.5 KiB"),
        (512 * 1024, "512 KiB"),
        (2 * 1024**3, "2 GiB"),
        (int(1.25 * 1024**3), "1.25 GiB"),
        (3 * 1024**4, "3 TiB"),
    ],
)
def test_format_bytes(n, text):
    assert format_bytes(n) == text


# ---- chapter 10: what the 667x counts, and the two other ratios beside it


@given(st.integers(1, 3000))
def test_the_three_work_ratios_in_closed_form(n):
    assert speedup(n) == Fraction(2 * n + 1, 3)
    assert speedup(n, "causal_scores") == Fraction(n + 2, 3)
    assert speedup(n, "rows") == Fraction(n + 1, 2)


@given(st.integers(0, 60), st.booleans())
def test_closed_forms_equal_the_step_by_step_sums(n, cached):
    steps = range(1, n + 1)
    lower = sum(k * (k + 1) // 2 for k in steps)
    assert total_scores(n, cached, table="causal") == (sum(steps) if cached else lower)
    assert total_rows(n, cached, n_layers=3) == 3 * (n if cached else sum(steps))


def test_the_headline_ratios_at_1000_steps():
    assert (speedup(1000), speedup(1000, "causal_scores"), speedup(1000, "rows")) == (667, 334, Fraction(1001, 2))

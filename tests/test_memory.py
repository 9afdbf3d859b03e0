from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer.kvcache import KVCache, decode_cached
from primer.memory import SHAPES, Shape, format_bytes, kv_cache_bytes, shape_bytes
from primer.transformer import Config, init_stack

SNIPPETS = Path(__file__).resolve().parents[1] / "docs" / "snippets"
KIB, MIB, GIB = 1024, 1024 ** 2, 1024 ** 3


def load(name):
    namespace = {"print": lambda *a, **k: None}
    exec(compile((SNIPPETS / name).read_text(), name, "exec"), namespace)
    return namespace


# ---- Llama-2-7B and the other published shapes

def test_llama_2_7b_takes_512_kib_per_token():
    assert shape_bytes(SHAPES["Llama-2-7B"], 1) == 512 * KIB == 2 * 32 * 4096 * 2
    assert format_bytes(shape_bytes(SHAPES["Llama-2-7B"], 1)) == "512 KiB"


def test_a_4096_token_context_takes_2_gib():
    assert shape_bytes(SHAPES["Llama-2-7B"], 4096) == 2 * GIB
    assert format_bytes(shape_bytes(SHAPES["Llama-2-7B"], 4096)) == "2 GiB"


def test_published_shapes():
    llama7, llama70, gpt2 = SHAPES["Llama-2-7B"], SHAPES["Llama-2-70B"], SHAPES["GPT-2"]
    assert (llama7.n_layers, llama7.d_model, llama7.n_heads, llama7.n_kv_heads, llama7.head_dim) == (32, 4096, 32, 32, 128)
    assert (llama70.n_layers, llama70.d_model, llama70.n_heads, llama70.n_kv_heads, llama70.head_dim) == (80, 8192, 64, 8, 128)
    assert (gpt2.n_layers, gpt2.d_model, gpt2.n_heads, gpt2.n_kv_heads, gpt2.head_dim) == (12, 768, 12, 12, 64)
    assert shape_bytes(llama70, 1) == 320 * KIB
    assert shape_bytes(gpt2, 1) == 36 * KIB


def test_grouped_query_attention_divides_by_the_group_size():
    llama70 = SHAPES["Llama-2-70B"]
    full = replace(llama70, n_kv_heads=64)
    assert shape_bytes(full, 4096) == 8 * shape_bytes(llama70, 4096) == 10 * GIB


def test_a_sliding_window_caps_the_cache():
    mistral = SHAPES["Mistral-7B"]
    assert mistral.window == 4096
    assert shape_bytes(mistral, 32768) == shape_bytes(mistral, 4096) == 512 * MIB
    assert shape_bytes(mistral, 32768, window=None) == 8 * shape_bytes(mistral, 32768)
    assert shape_bytes(mistral, 1000) == shape_bytes(mistral, 1000, window=None)
    assert shape_bytes(SHAPES["Llama-2-7B"], 8192, window=4096) == 2 * GIB


@given(st.integers(1, 100), st.integers(1, 64), st.integers(1, 256), st.integers(0, 10**5), st.integers(1, 16),
       st.sampled_from([1, 2, 4, 8]))
def test_the_formula_is_a_product_linear_in_every_factor(layers, heads, dim, tokens, batch, nbytes):
    b = kv_cache_bytes(layers, heads, dim, tokens, batch, nbytes)
    assert b == 2 * layers * heads * dim * tokens * batch * nbytes
    assert kv_cache_bytes(layers, heads, dim, tokens + 1, batch, nbytes) - b == kv_cache_bytes(layers, heads, dim, 1, batch, nbytes)
    assert kv_cache_bytes(layers, heads, dim, tokens, 2 * batch, nbytes) == 2 * b


# ---- the formula against real arrays: primer's own cache on a tiny config

@settings(max_examples=20, deadline=None)
@given(st.integers(1, 3), st.sampled_from([1, 2, 4]), st.integers(1, 20), st.sampled_from([np.float64, np.float32, np.float16]))
def test_formula_equals_the_nbytes_of_primers_cache(layers, heads, n, dtype):
    cfg = Config(n_layers=layers, n_heads=heads, d_model=8, max_len=20)
    cache = KVCache(cfg, dtype=dtype)
    decode_cached(np.arange(n) % cfg.vocab_size, init_stack(0, cfg), cfg, cache)
    assert cache.nbytes == kv_cache_bytes(layers, heads, cfg.d_head, n, bytes_per_value=np.dtype(dtype).itemsize)


def test_core_numpy_equals_primer_on_random_inputs():
    core = load("11-kv-memory/core_numpy.py")
    rng = np.random.default_rng(5)
    for _ in range(50):
        args = [int(a) for a in rng.integers(1, 100, 4)] + [int(rng.integers(1, 9)), int(rng.choice([1, 2, 4]))]
        assert core["kv_cache_bytes"](*args) == kv_cache_bytes(*args)
    assert core["kv_cache_bytes"](32, 32, 128, 4096) == shape_bytes(SHAPES["Llama-2-7B"], 4096)


# ---- binary units

@pytest.mark.parametrize("n, text", [(0, "0 B"), (1000, "1000 B"), (1024, "1 KiB"), (1536, "1.5 KiB"),
                                     (512 * KIB, "512 KiB"), (2 * GIB, "2 GiB"), (int(1.25 * GIB), "1.25 GiB"),
                                     (3 * 1024 ** 4, "3 TiB")])
def test_format_bytes(n, text):
    assert format_bytes(n) == text


# ---- bad input

@pytest.mark.parametrize("call, words", [
    (lambda: kv_cache_bytes(0, 1, 1, 1), "n_layers must be an integer >= 1"),
    (lambda: kv_cache_bytes(1, 0, 1, 1), "n_kv_heads must be an integer >= 1"),
    (lambda: kv_cache_bytes(1, 1, 1.5, 1), "head_dim must be an integer >= 1"),
    (lambda: kv_cache_bytes(1, 1, 1, -1), "n_tokens must be an integer >= 0"),
    (lambda: kv_cache_bytes(1, 1, 1, 1, batch=0), "batch must be an integer >= 1"),
    (lambda: kv_cache_bytes(1, 1, 1, 1, bytes_per_value=0), "bytes_per_value must be an integer >= 1"),
    (lambda: Shape("x", 2, 10, 3, 3, 8), "d_model must be divisible by n_heads"),
    (lambda: Shape("x", 2, 12, 4, 3, 8), "n_heads must be a multiple of n_kv_heads"),
    (lambda: Shape("x", 0, 12, 4, 4, 8), "n_layers must be an integer >= 1"),
    (lambda: Shape("x", 2, 12, 4, 4, 8, window=0), "window must be an integer >= 1"),
    (lambda: shape_bytes("Llama-2-7B", 1), "shape must be a primer.memory.Shape"),
    (lambda: shape_bytes(SHAPES["GPT-2"], 10, window=-3), "window must be an integer >= 1"),
    (lambda: format_bytes(-1), "n_bytes must be an integer >= 0"),
])
def test_bad_input(call, words):
    with pytest.raises(ValueError, match=words):
        call()

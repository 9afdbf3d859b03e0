from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import load_snippet
from primer import causal_mask, encdec
from primer.config import Config
from primer.kvcache import decode_cached
from primer.machines import masks
from primer.pages import encoder_decoder as page
from primer.transformer import decode, encode, encoder_kv
from primer.vocab import to_ids, to_words

SOURCE_IDS = to_ids(page.SOURCE, page.VOCAB)


def test_projection_counts_of_the_page():
    rows = encdec.projection_counts()
    assert rows == [(t, 6, 6 * t) for t in range(1, 7)]


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5))
def test_reuse_projects_n_layers_once_whatever_the_steps(n_layers, steps):
    cfg = Config(vocab_size=len(page.VOCAB), n_layers=n_layers)
    enc, dec = encdec.model(cfg)
    once, naive = Counter(), Counter()
    assert encdec.generate(SOURCE_IDS, enc, dec, cfg, steps, True, once) == encdec.generate(SOURCE_IDS, enc, dec, cfg, steps, False, naive)
    assert once["cross_kv_projections"] == n_layers
    assert naive["cross_kv_projections"] == n_layers * steps


def test_generation_of_the_page():
    enc, dec = encdec.model()
    ops = Counter()
    tokens = encdec.generate(SOURCE_IDS, enc, dec, page.CFG, ops=ops)
    assert len(tokens) == page.STEPS
    assert to_words(tokens, page.VOCAB) == ["mat"] * 6
    assert ops["cross_kv_projections"] == page.CFG.n_layers


def test_decoding_with_projected_memory_kv_equals_transformer_decode():
    enc, dec = encdec.model()
    memory = encode(SOURCE_IDS, enc, page.CFG)
    tgt = to_ids(["<bos>", "the", "cat"], page.VOCAB)
    ops, weights = Counter(), []
    out = decode_cached(tgt, dec, page.CFG, ops=ops, memory_kv=encoder_kv(memory, dec, page.CFG), weights=weights)
    assert np.abs(out - decode(tgt, dec, page.CFG, memory=memory)).max() <= 1e-12
    assert ops["cross_kv_projections"] == 0
    cross = masks("encoder-decoder", len(tgt), len(SOURCE_IDS))[1]
    for w in weights:                                   # every decoder row reads every source column
        assert w["cross"].shape == (page.CFG.n_heads, *cross.shape) and np.all(w["cross"] > 0)


def test_teacher_forced_shapes():
    t = encdec.teacher_forced()
    h = page.CFG.n_heads
    assert len(t["enc"]) == len(t["self"]) == len(t["cross"]) == page.CFG.n_layers
    assert t["enc"][0].shape == (h, 7, 7) and t["self"][0].shape == (h, 6, 6) and t["cross"][0].shape == (h, 6, 7)
    assert t["tgt"] == ["<bos>", "the", "cat", "sat", "on", "the"]
    assert np.all(t["self"][0][:, ~causal_mask(6)] == 0) and np.all(t["cross"][0] > 0) and np.all(t["enc"][0] > 0)


def test_two_stack_layout():
    mask, region = encdec.two_stack_layout(3, 2)
    assert mask.tolist() == [[1, 1, 1, 0, 0], [1, 1, 1, 0, 0], [1, 1, 1, 0, 0],
                             [1, 1, 1, 1, 0], [1, 1, 1, 1, 1]]
    assert region[0, 2] == encdec.ENC_SELF and region[3, 0] == encdec.CROSS and region[4, 3] == encdec.DEC_SELF
    assert region[0, 3] == encdec.CLOSED and region[3, 4] == encdec.CLOSED


def test_prompt_layout():
    words, mask, region = encdec.prompt_layout(("a", "b"), ("x",))
    assert words == ["French", ":", "a", "b", "English", ":", "x"]
    assert np.array_equal(mask, causal_mask(7))
    assert region[3, 2] == encdec.PROMPT and region[6, 0] == encdec.CROSS and region[6, 6] == encdec.DEC_SELF
    assert region[2, 3] == encdec.CLOSED


def test_layout_summary():
    assert encdec.layout_summary() == [("two_stacks", 13, 112, True), ("one_prompt", 17, 153, False)]


def test_a_decoder_block_is_an_encoder_block_plus_one_attention_sublayer():
    rows = {name: (enc, dec) for name, enc, dec in encdec.block_anatomy(page.CFG)}
    d = page.CFG.d_model
    attention_sublayer = 4 * (d * d + d) + 2 * d   # q, k, v, o with biases, and its LayerNorm
    assert rows["self"] == (attention_sublayer, attention_sublayer)
    assert rows["cross"] == (None, attention_sublayer)
    assert rows["ffn"][0] == rows["ffn"][1]


# ---- the chapter's numpy core agrees with primer

def test_chapter_8_core_numpy_equals_primer_on_random_inputs():
    from primer.attention import attention
    from primer.masks import full_mask

    core = load_snippet("08-encoder-decoder/core_numpy.py")
    rng = np.random.default_rng(8)
    for _ in range(30):
        n, m, d, n_layers = (int(v) for v in rng.integers(1, 9, size=4))
        memory, x = rng.normal(size=(m, d)), rng.normal(size=(n, d))
        layers = [(rng.normal(size=(d, 3)), rng.normal(size=(d, 3))) for _ in range(n_layers)]
        kv = core["memory_kv"](memory, layers)
        assert len(kv) == n_layers
        w_q = rng.normal(size=(d, 3))
        for (k, v), (w_k, w_v) in zip(kv, layers):
            theirs = attention(x @ w_q, memory @ w_k, memory @ w_v, full_mask(n, m))[0]
            assert np.allclose(core["cross_attention"](x, (k, v), w_q), theirs, atol=1e-12)

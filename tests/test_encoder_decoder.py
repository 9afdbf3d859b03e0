from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from site_reader import load_snippet

from primer import causal_mask, encoder_decoder
from primer.config import Config
from primer.inputs import encoder_decoder as page
from primer.kv_cache import decode_cached
from primer.machines import machine_masks
from primer.transformer import decode, encode, encoder_kv
from primer.vocab import to_ids, to_words

SOURCE_IDS = to_ids(page.SOURCE, page.VOCAB)
CFG = Config(**page.CONFIG)
SEEDS = (page.ENC_SEED, page.DEC_SEED)


def page_run():
    enc, dec = encoder_decoder.model(CFG, *SEEDS)
    return encoder_decoder.teacher_forced(page.SOURCE, page.TARGET, page.VOCAB, enc, dec, CFG)


def test_projection_counts_of_the_page():
    rows = encoder_decoder.projection_counts(SOURCE_IDS, *encoder_decoder.model(CFG, *SEEDS), CFG, page.STEPS)
    assert rows == [(t, 6, 6 * t) for t in range(1, 7)]


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5))
def test_reuse_projects_n_layers_once_whatever_the_steps(n_layers, steps):
    cfg = Config(vocab_size=len(page.VOCAB), n_layers=n_layers)
    enc, dec = encoder_decoder.model(cfg, *SEEDS)
    once, naive = Counter(), Counter()
    assert encoder_decoder.generate(SOURCE_IDS, enc, dec, cfg, steps, True, once) == encoder_decoder.generate(
        SOURCE_IDS, enc, dec, cfg, steps, False, naive
    )
    assert once["cross_kv_projections"] == n_layers
    assert naive["cross_kv_projections"] == n_layers * steps


def test_generation_of_the_page():
    enc, dec = encoder_decoder.model(CFG, *SEEDS)
    ops = Counter()
    tokens = encoder_decoder.generate(SOURCE_IDS, enc, dec, CFG, page.STEPS, ops=ops)
    assert len(tokens) == page.STEPS
    assert to_words(tokens, page.VOCAB) == ["mat"] * 6
    assert ops["cross_kv_projections"] == CFG.n_layers


def test_decoding_with_projected_enc_kv_equals_transformer_decode():
    enc, dec = encoder_decoder.model(CFG, *SEEDS)
    enc_out = encode(SOURCE_IDS, enc, CFG)
    tgt = to_ids(["<bos>", "the", "cat"], page.VOCAB)
    ops, weights = Counter(), []
    out = decode_cached(tgt, dec, CFG, ops=ops, enc_kv=encoder_kv(enc_out, dec, CFG), weights=weights)
    assert np.abs(out - decode(tgt, dec, CFG, enc_out=enc_out)).max() <= 1e-12
    assert ops["cross_kv_projections"] == 0
    cross = machine_masks("encoder-decoder", len(tgt), len(SOURCE_IDS))[1]
    for w in weights:  # every decoder row reads every source column
        assert w["cross"].shape == (CFG.n_heads, *cross.shape) and np.all(w["cross"] > 0)


def test_teacher_forced_shapes():
    t = page_run()
    h = CFG.n_heads
    assert len(t["enc"]) == len(t["self"]) == len(t["cross"]) == CFG.n_layers
    assert t["enc"][0].shape == (h, 7, 7) and t["self"][0].shape == (h, 6, 6) and t["cross"][0].shape == (h, 6, 7)
    assert t["tgt"] == ["<bos>", "the", "cat", "sat", "on", "the"]
    assert np.all(t["self"][0][:, ~causal_mask(6)] == 0) and np.all(t["cross"][0] > 0) and np.all(t["enc"][0] > 0)


def test_two_stack_layout():
    mask, region = encoder_decoder.two_stack_layout(3, 2)
    assert mask.tolist() == [[1, 1, 1, 0, 0], [1, 1, 1, 0, 0], [1, 1, 1, 0, 0], [1, 1, 1, 1, 0], [1, 1, 1, 1, 1]]
    assert (
        region[0, 2] == encoder_decoder.ENC_SELF
        and region[3, 0] == encoder_decoder.CROSS
        and region[4, 3] == encoder_decoder.DEC_SELF
    )
    assert region[0, 3] == encoder_decoder.CLOSED and region[3, 4] == encoder_decoder.CLOSED


def test_prompt_layout():
    words, mask, region = encoder_decoder.prompt_layout(("a", "b"), ("x",), ("French", "English"))
    assert words == ["French", ":", "a", "b", "English", ":", "x"]
    assert np.array_equal(mask, causal_mask(7))
    assert (
        region[3, 2] == encoder_decoder.PROMPT
        and region[6, 0] == encoder_decoder.CROSS
        and region[6, 6] == encoder_decoder.DEC_SELF
    )
    assert region[2, 3] == encoder_decoder.CLOSED


def test_layout_summary():
    assert encoder_decoder.layout_summary(page.SOURCE, page.TARGET, (page.SOURCE_TAG, page.TARGET_TAG)) == [
        ("two_stacks", 13, 112, True),
        ("one_prompt", 17, 153, False),
    ]


def test_a_decoder_block_is_an_encoder_block_plus_one_attention_sublayer():
    rows = {name: (enc, dec) for name, enc, dec in encoder_decoder.block_anatomy(CFG)}
    d = CFG.d_model
    attention_sublayer = 4 * (d * d + d) + 2 * d  # q, k, v, o with biases, and its LayerNorm
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
        enc_out, x = rng.normal(size=(m, d)), rng.normal(size=(n, d))
        layers = [(rng.normal(size=(d, 3)), rng.normal(size=(d, 3))) for _ in range(n_layers)]
        kv = core["enc_kv"](enc_out, layers)
        assert len(kv) == n_layers
        w_q = rng.normal(size=(d, 3))
        for (k, v), (w_k, w_v) in zip(kv, layers):
            theirs = attention(x @ w_q, enc_out @ w_k, enc_out @ w_v, full_mask(n, m))[0]
            assert np.allclose(core["cross_attention"](x, (k, v), w_q), theirs, atol=1e-12)

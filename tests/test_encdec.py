from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer import causal_mask, encdec
from primer.transformer import Config, encode, encoder_kv


def test_projection_counts_of_the_page():
    rows = encdec.projection_counts()
    assert rows == [(t, 6, 6 * t) for t in range(1, 7)]


@settings(max_examples=10, deadline=None)
@given(st.integers(1, 4), st.integers(1, 5))
def test_reuse_projects_n_layers_once_whatever_the_steps(n_layers, steps):
    cfg = Config(vocab_size=len(encdec.VOCAB), n_layers=n_layers)
    enc, dec = encdec.model(cfg)
    src = encdec.ids(encdec.SOURCE)
    once = encdec.generate(src, enc, dec, cfg, steps, reuse_kv=True)
    naive = encdec.generate(src, enc, dec, cfg, steps, reuse_kv=False)
    assert once.ops["cross_kv_projections"] == n_layers
    assert naive.ops["cross_kv_projections"] == n_layers * steps
    assert once.tokens == naive.tokens
    for a, b in zip(once.last_logits, naive.last_logits):
        assert np.allclose(a, b, rtol=0, atol=1e-12)


def test_generation_of_the_page():
    enc, dec = encdec.model()
    run = encdec.generate(encdec.ids(encdec.SOURCE), enc, dec, encdec.CFG)
    assert len(run.tokens) == encdec.STEPS
    assert encdec.words(run.tokens) == ["mat"] * 6
    assert run.ops["cross_kv_projections"] == encdec.CFG.n_layers


def test_cross_mask_unchanged_across_decoder_rows_and_steps():
    enc, dec = encdec.model()
    run = encdec.generate(encdec.ids(encdec.SOURCE), enc, dec, encdec.CFG)
    m = len(encdec.SOURCE)
    mask = encdec.cross_mask_rows(encdec.STEPS, m)
    assert all(np.array_equal(row, mask[0]) for row in mask)
    for t, per_layer in enumerate(run.cross_weights, start=1):
        for w in per_layer:
            assert w.shape == (encdec.CFG.n_heads, t, m)
            assert np.all(w > 0)                          # every decoder row reads every source column
    last = run.cross_weights[-1]
    for t, per_layer in enumerate(run.cross_weights, start=1):
        for w, w_last in zip(per_layer, last):
            assert np.allclose(w, w_last[:, :t], rtol=0, atol=1e-12)   # earlier rows never change


def test_decode_with_memory_kv_equals_transformer_decode():
    from primer.transformer import decode
    enc, dec = encdec.model()
    memory = encode(encdec.ids(encdec.SOURCE), enc, encdec.CFG)
    tgt = encdec.ids(["<bos>", "the", "cat"])
    ops = Counter()
    out, w = encdec.decode_with_memory_kv(tgt, dec, encdec.CFG, encoder_kv(memory, dec, encdec.CFG), ops)
    assert np.allclose(out, decode(tgt, dec, encdec.CFG, memory=memory), rtol=0, atol=1e-12)
    assert ops["cross_kv_projections"] == 0


def test_teacher_forced_shapes():
    t = encdec.teacher_forced()
    h = encdec.CFG.n_heads
    assert len(t["enc"]) == len(t["self"]) == len(t["cross"]) == encdec.CFG.n_layers
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


def test_mean_heads_and_check_layer():
    assert encdec.mean_heads(np.ones((4, 2, 3))).shape == (2, 3)
    assert encdec.check_layer(5) == 5


@pytest.mark.parametrize("call, words", [
    (lambda: encdec.ids(["chien"]), "unknown"),
    (lambda: encdec.generate(encdec.ids(["le"]), *encdec.model(), encdec.CFG, 0), "steps"),
    (lambda: encdec.generate(encdec.ids(["le"]), *encdec.model(), encdec.CFG, 64), "max_len"),
    (lambda: encdec.two_stack_layout(0, 2), "n_source"),
    (lambda: encdec.two_stack_layout(2, 0), "n_target"),
    (lambda: encdec.prompt_layout((), ("x",)), "must not be empty"),
    (lambda: encdec.projection_counts(0), "max_steps"),
    (lambda: encdec.check_layer(6), "n_layers"),
    (lambda: encdec.check_layer(-1), "layer"),
    (lambda: encdec.mean_heads(np.ones((2, 3))), "dimension"),
    (lambda: encdec.decode_with_memory_kv(np.array([0]), encdec.model()[1], encdec.CFG, []), "one \\(K, V\\)"),
])
def test_bad_input(call, words):
    with pytest.raises(ValueError, match=words):
        call()


def test_a_decoder_block_is_an_encoder_block_plus_one_attention_sublayer():
    rows = {name: (enc, dec) for name, enc, dec in encdec.block_anatomy(encdec.CFG)}
    d = encdec.CFG.d_model
    attention_sublayer = 4 * (d * d + d) + 2 * d   # q, k, v, o with biases, and its LayerNorm
    assert rows["self"] == (attention_sublayer, attention_sublayer)
    assert rows["cross"] == (None, attention_sublayer)
    assert rows["ffn"][0] == rows["ffn"][1]

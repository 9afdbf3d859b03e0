from collections import Counter

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from primer import causal_mask, full_mask
from primer.config import Config
from primer.position import sinusoidal_encoding as positional_table
from primer.rounding import BOUND, is_rounding
from primer.transformer import (
    block,
    decode,
    embed,
    encode,
    encoder_kv,
    init_block,
    init_stack,
    logits,
    merge_heads,
    split_heads,
    stack,
)

CFG = Config()
ENC = init_stack(0, CFG)
DEC = init_stack(1, CFG, cross=True)
tokens = st.lists(st.integers(0, CFG.vocab_size - 1), min_size=2, max_size=12).map(np.array)


def unmasked_decode(toks, params, cfg, enc_out=None):
    x = embed(toks, params, cfg)
    return logits(stack(x, params, cfg, full_mask(len(x)), enc_out=enc_out)[0], params)


# ---- shapes


def test_shapes():
    toks = np.array([1, 2, 3, 4, 5])
    assert encode(toks, ENC, CFG).shape == (5, CFG.d_model)
    assert decode(toks, ENC, CFG).shape == (5, CFG.vocab_size)
    enc_out = encode(np.arange(7), ENC, CFG)
    assert decode(toks, DEC, CFG, enc_out=enc_out).shape == (5, CFG.vocab_size)
    x = embed(toks, DEC, CFG)
    _, w = stack(x, DEC, CFG, causal_mask(5), enc_out=enc_out)
    assert len(w) == CFG.n_layers
    assert w[0]["self"].shape == (CFG.n_heads, 5, 5) and w[0]["cross"].shape == (CFG.n_heads, 5, 7)


def test_heads_split_and_merge_back():
    x = np.arange(24.0).reshape(3, 8)
    assert split_heads(x, 4).shape == (4, 3, 2)
    assert np.array_equal(merge_heads(split_heads(x, 4)), x)


def test_positional_table_starts_with_sin_cos():
    pe = positional_table(4, 6)
    assert pe.shape == (4, 6)
    assert np.allclose(pe[0], [0, 1, 0, 1, 0, 1])
    assert np.isclose(pe[1, 0], np.sin(1.0)) and np.isclose(pe[1, 1], np.cos(1.0))


def test_masks_are_the_only_difference():
    toks = np.array([3, 1, 4, 1, 5])
    x = embed(toks, ENC, CFG)
    enc_h, enc_w = stack(x, ENC, CFG, full_mask(5))
    dec_h, dec_w = stack(x, ENC, CFG, causal_mask(5))
    assert np.allclose(enc_h, encode(toks, ENC, CFG))
    assert np.allclose(logits(dec_h, ENC), decode(toks, ENC, CFG))
    assert np.all(enc_w[0]["self"] > 0)  # full: every cell read
    assert np.all(dec_w[0]["self"][:, ~causal_mask(5)] == 0)  # causal: future cells exactly 0
    assert np.allclose(enc_w[0]["self"].sum(-1), 1) and np.allclose(dec_w[0]["self"].sum(-1), 1)


# ---- the leak property, both ways


@settings(max_examples=40, deadline=None)
@given(tokens, st.data())
def test_causal_decoder_ignores_the_future(toks, data):
    pos = data.draw(st.integers(1, len(toks) - 1))
    changed = toks.copy()
    changed[pos] = (changed[pos] + data.draw(st.integers(1, CFG.vocab_size - 1))) % CFG.vocab_size
    a, b = decode(toks, ENC, CFG), decode(changed, ENC, CFG)
    assert is_rounding(a[:pos] - b[:pos])  # 0 in exact arithmetic: the future has weight exp(-inf) = 0
    assert not is_rounding(a[pos] - b[pos])


@settings(max_examples=40, deadline=None)
@given(tokens, st.data())
def test_without_the_mask_the_future_leaks_into_every_earlier_position(toks, data):
    pos = data.draw(st.integers(1, len(toks) - 1))
    changed = toks.copy()
    changed[pos] = (changed[pos] + data.draw(st.integers(1, CFG.vocab_size - 1))) % CFG.vocab_size
    a, b = unmasked_decode(toks, ENC, CFG), unmasked_decode(changed, ENC, CFG)
    assert np.all(np.abs(a[:pos] - b[:pos]).max(axis=-1) > BOUND)


@settings(max_examples=20, deadline=None)
@given(tokens)
def test_encoder_position_reads_both_directions(toks):
    changed = toks.copy()
    changed[-1] = (changed[-1] + 1) % CFG.vocab_size
    first = encode(toks, ENC, CFG)[0], encode(changed, ENC, CFG)[0]
    assert not np.array_equal(*first)  # the first position saw the last one change
    changed = toks.copy()
    changed[0] = (changed[0] + 1) % CFG.vocab_size
    last = encode(toks, ENC, CFG)[-1], encode(changed, ENC, CFG)[-1]
    assert not np.array_equal(*last)


# ---- cross-attention


def test_cross_mask_is_the_same_full_row_for_every_decoder_row():
    enc_out = encode(np.arange(6), ENC, CFG)
    for n in range(1, 8):
        x = embed(np.arange(n) % CFG.vocab_size, DEC, CFG)
        _, w = stack(x, DEC, CFG, causal_mask(n), enc_out=enc_out)
        for layer in w:
            assert layer["cross"].shape == (CFG.n_heads, n, 6)
            assert np.all(layer["cross"] > 0)  # every decoder row reads every source column
            assert np.allclose(layer["cross"].sum(-1), 1)


def test_cross_weights_of_a_row_do_not_change_as_the_target_grows():
    enc_out = encode(np.arange(6), ENC, CFG)
    target = np.array([2, 7, 1, 8, 2, 8])
    per_len = []
    for n in range(1, len(target) + 1):
        _, w = stack(embed(target[:n], DEC, CFG), DEC, CFG, causal_mask(n), enc_out=enc_out)
        per_len.append(w)
    for n in range(1, len(target)):
        for layer in range(CFG.n_layers):
            # equal up to rounding: different lengths can take different BLAS paths
            assert np.allclose(per_len[n - 1][layer]["cross"], per_len[-1][layer]["cross"][:, :n], rtol=0, atol=1e-12)


def test_changing_the_memory_moves_every_decoder_row():
    toks = np.array([1, 2, 3, 4])
    a = decode(toks, DEC, CFG, enc_out=encode(np.arange(5), ENC, CFG))
    b = decode(toks, DEC, CFG, enc_out=encode(np.array([0, 1, 2, 3, 9]), ENC, CFG))
    assert np.all(np.abs(a - b).max(axis=-1) > 0)


def test_encoder_kv_is_projected_once_per_layer_per_call():
    for n_layers in (1, 2, 3, 6):
        cfg = Config(n_layers=n_layers)
        dec = init_stack(3, cfg, cross=True)
        enc_out = encode(np.arange(5), init_stack(2, cfg), cfg)
        ops = Counter()
        decode(np.array([1, 2, 3]), dec, cfg, enc_out=enc_out, ops=ops)
        assert ops["cross_kv_projections"] == n_layers
        ops = Counter()
        kv = encoder_kv(enc_out, dec, cfg, ops)
        assert ops["cross_kv_projections"] == n_layers and ops["kv_rows"] == 5 * n_layers
        assert len(kv) == n_layers and kv[0][0].shape == (cfg.n_heads, 5, cfg.d_head)


def test_op_counts_of_a_decoder_call():
    ops = Counter()
    decode(np.arange(4), ENC, CFG, ops=ops)
    assert ops["kv_rows"] == 4 * CFG.n_layers
    assert ops["q_rows"] == 4 * CFG.n_layers
    assert ops["scores"] == CFG.n_heads * 4 * 4 * CFG.n_layers
    assert ops["cross_kv_projections"] == 0


def test_a_block_without_cross_weights_has_no_cross_output():
    p = init_block(np.random.default_rng(0), CFG)
    out, w = block(np.ones((3, CFG.d_model)), p, CFG.n_heads, causal_mask(3))
    assert out.shape == (3, CFG.d_model) and w["cross"] is None

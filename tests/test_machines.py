"""The one mask choice per machine: encoder full, decoder causal, encoder-decoder causal plus a full cross rectangle."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from site_reader import load_snippet

from primer import causal_mask, full_mask
from primer.config import Config
from primer.machines import (
    EXAMPLE_MODEL,
    MACHINES,
    OUTPUTS,
    architecture_for,
    machine_for,
    machine_masks,
    reach,
    stack_masks,
)
from primer.published import model
from primer.transformer import decode, encode, init_stack
from primer.transformer import run_machine as run

CFG = Config()


@given(st.integers(1, 30), st.integers(1, 30))
def test_the_knob_sets_the_masks(n, m):
    enc, enc_cross = machine_masks("encoder", n)
    dec, dec_cross = machine_masks("decoder", n)
    ed, ed_cross = machine_masks("encoder-decoder", n, m)
    assert np.array_equal(enc, full_mask(n)) and enc_cross is None
    assert np.array_equal(dec, causal_mask(n)) and dec_cross is None
    assert np.array_equal(ed, causal_mask(n)) and ed_cross.shape == (n, m) and ed_cross.all()


@given(st.integers(1, 8), st.integers(0, 8))
def test_new_rows_after_cached_ones_read_every_old_key(n, past):
    self_mask, _ = machine_masks("decoder", n, past=past)
    assert self_mask.shape == (n, past + n)
    assert self_mask[:, :past].all()  # every cached key is in the past
    assert np.array_equal(self_mask[:, past:], causal_mask(n))  # the new rows among themselves: causal
    assert np.array_equal(machine_masks("decoder", past + n)[0][past:], self_mask)


@given(st.integers(1, 12), st.integers(1, 12))
def test_stack_masks(n_src, n_tgt):
    enc, dec, cross = stack_masks("encoder", n_src, n_tgt)
    assert np.array_equal(enc, full_mask(n_src)) and dec is None and cross is None
    enc, dec, cross = stack_masks("decoder", n_src, n_tgt)
    assert enc is None and np.array_equal(dec, causal_mask(n_tgt)) and cross is None
    enc, dec, cross = stack_masks("encoder-decoder", n_src, n_tgt)
    assert enc.shape == (n_src, n_src) and dec.shape == (n_tgt, n_tgt) and cross.shape == (n_tgt, n_src) and cross.all()


@pytest.mark.parametrize("machine", MACHINES)
def test_reach_puts_self_and_cross_side_by_side(machine):
    self_mask, cross_mask = machine_masks(machine, 4, 3)
    r = reach(machine, 4, 3)
    assert np.array_equal(r[:, :4], self_mask)
    assert np.array_equal(r[:, 4:], np.zeros((4, 3), bool) if cross_mask is None else cross_mask)


@settings(max_examples=10, deadline=None)
@given(st.lists(st.integers(0, CFG.vocab_size - 1), min_size=1, max_size=8), st.integers(0, 50))
def test_run_is_the_transformers_encoder_and_decoder(tokens, seed):
    tokens = np.array(tokens)
    params = init_stack(seed, CFG, cross=True)
    enc_out = encode(tokens[::-1].copy(), init_stack(seed + 1, CFG), CFG)
    assert np.abs(run("encoder", tokens, params, CFG) - encode(tokens, params, CFG)).max() <= 1e-12
    logits = run("decoder", tokens, params, CFG) @ params["wte"].T
    assert np.abs(logits - decode(tokens, params, CFG)).max() <= 1e-12
    logits = run("encoder-decoder", tokens, params, CFG, enc_out) @ params["wte"].T
    assert np.abs(logits - decode(tokens, params, CFG, enc_out=enc_out)).max() <= 1e-12


# ---- which machine an output needs (chapter 9)


def test_output_rule():
    got = {o: architecture_for(o).machine for o in OUTPUTS}
    assert got == {"label": "encoder", "span": "encoder", "text": "decoder", "translation": "encoder-decoder"}
    for o in OUTPUTS:
        c = architecture_for(o)
        assert c.example == EXAMPLE_MODEL[c.machine] and model(c.example).machine == c.machine


@given(st.booleans(), st.booleans())
def test_machine_for_covers_every_answer(writes, separate):
    machine = machine_for(writes, separate)
    assert machine in MACHINES
    assert (machine == "encoder") == (not writes)


# ---- the chapter's numpy core agrees with primer (chapter 9)


def test_chapter_9_core_numpy_equals_primer_on_random_inputs():
    from primer.attention import attention

    core = load_snippet("09-choosing/core_numpy.py")
    rng = np.random.default_rng(9)
    for machine in MACHINES:
        for n, m in ((1, 1), (4, 3), (6, 2)):
            ours, theirs = core["masks_for"](machine, n, m), machine_masks(machine, n, m)
            assert np.array_equal(ours[0], theirs[0])
            assert (ours[1] is None) == (theirs[1] is None)
            if ours[1] is not None:
                assert np.array_equal(ours[1], theirs[1])
            x, w = rng.normal(size=(n, 5)), [rng.normal(size=(5, 3)) for _ in range(3)]
            f = core["attention_layer"](ours[0], *w)
            assert np.allclose(f(x), attention(x @ w[0], x @ w[1], x @ w[2], theirs[0])[0], atol=1e-12)
            assert np.array_equal(core["reads"](f, x), ours[0])
    with pytest.raises(ValueError, match="machine must be"):
        core["masks_for"]("seq2seq", 3)

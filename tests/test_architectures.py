"""The three machines: their masks, what the real block reads (measured), the published shapes, the output rule."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from primer import causal_mask, full_mask
from primer.architectures import (EXAMPLE_MODEL, MACHINES, MODELS, OUTPUTS, PUBLISHED, SOURCE, TARGET,
                                  architecture_for, influence, machine_for, masks, model, run, stack_masks, summary)


@given(st.integers(1, 30), st.integers(1, 30))
def test_the_knob_sets_the_masks(n, m):
    enc, enc_cross = masks("encoder", n)
    dec, dec_cross = masks("decoder", n)
    ed, ed_cross = masks("encoder-decoder", n, m)
    assert enc.all() and enc_cross is None
    assert np.array_equal(dec, causal_mask(n)) and dec_cross is None
    assert np.array_equal(ed, causal_mask(n)) and ed_cross.shape == (n, m) and ed_cross.all()


@pytest.mark.parametrize("machine", MACHINES)
def test_measured_reads_equal_the_masks_cell_for_cell(machine):
    self_mask, cross_mask = masks(machine, len(TARGET), len(SOURCE))
    own, src = influence(machine)
    assert np.array_equal(own > 0, self_mask)        # masked cells move by exactly 0, open cells move
    assert np.all(own[~self_mask] == 0.0)
    if cross_mask is None:
        assert src is None
    else:
        assert np.array_equal(src > 0, cross_mask)   # every output reads every source token


def test_decoder_outputs_do_not_move_when_a_future_token_changes():
    own, _ = influence("decoder", tokens=np.array([1, 2, 3, 4, 5, 6]))
    assert np.all(np.triu(own, k=1) == 0.0) and np.all(np.diag(own) > 0)


def test_run_shapes():
    assert run("encoder", TARGET).shape == (len(TARGET), 16)
    assert run("decoder", TARGET).shape == (len(TARGET), 32)
    assert run("encoder-decoder", TARGET, SOURCE).shape == (len(TARGET), 32)


@given(st.integers(1, 12), st.integers(1, 12))
def test_stack_masks(n_src, n_tgt):
    enc, dec, cross = stack_masks("encoder", n_src, n_tgt)
    assert np.array_equal(enc, full_mask(n_src)) and dec is None and cross is None
    enc, dec, cross = stack_masks("decoder", n_src, n_tgt)
    assert enc is None and np.array_equal(dec, causal_mask(n_tgt)) and cross is None
    enc, dec, cross = stack_masks("encoder-decoder", n_src, n_tgt)
    assert enc.shape == (n_src, n_src) and dec.shape == (n_tgt, n_tgt) and cross.shape == (n_tgt, n_src) and cross.all()


def test_published_shapes_f8():
    bert, gpt, t5 = model("BERT-base"), model("GPT-1"), model("T5-base")
    assert (bert.encoder_layers, bert.decoder_layers) == (12, 0)
    assert (gpt.encoder_layers, gpt.decoder_layers) == (0, 12)
    assert (t5.encoder_layers, t5.decoder_layers) == (12, 12)
    assert {s.d_model for s in MODELS.values()} == {768}
    assert (bert.vocab_size, gpt.vocab_size, t5.vocab_size) == (30522, 40478, 32128)
    assert (bert.max_positions, gpt.max_positions, t5.max_positions) == (512, 512, 0)
    assert t5.relative_buckets == 32 and not t5.dense_bias and t5.tied_output
    assert {name: p for name, (p, _) in PUBLISHED.items()} == {
        "BERT-base": 110_000_000, "GPT-1": 117_000_000, "T5-base": 220_000_000}


def test_summary():
    s = summary("T5-base")
    assert s["total"] == sum(s["parts"].values()) == 222_903_552
    assert s["difference"] == pytest.approx((222_903_552 - 220_000_000) / 220_000_000)
    assert "Raffel" in s["source"]


def test_output_rule():
    got = {o: architecture_for(o).machine for o in OUTPUTS}
    assert got == {"label": "encoder", "span": "encoder", "text": "decoder", "translation": "encoder-decoder"}
    for o in OUTPUTS:
        c = architecture_for(o)
        assert c.example == EXAMPLE_MODEL[c.machine] and model(c.example).kind == c.machine


@given(st.booleans(), st.booleans())
def test_machine_for_covers_every_answer(writes, separate):
    machine = machine_for(writes, separate)
    assert machine in MACHINES
    assert (machine == "encoder") == (not writes)


@pytest.mark.parametrize("call, words", [
    (lambda: masks("transformer", 3), "machine"),
    (lambda: masks("encoder", 0), "n"),
    (lambda: masks("encoder-decoder", 3), "m \\(the number of source positions\\)"),
    (lambda: masks("encoder-decoder", 3, 0), "m"),
    (lambda: stack_masks("gpt", 2, 2), "machine"),
    (lambda: stack_masks("decoder", 2, 0), "n_tgt"),
    (lambda: stack_masks("encoder", 0, 2), "n_src"),
    (lambda: run("rnn", TARGET), "machine"),
    (lambda: run("encoder-decoder", TARGET), "source"),
    (lambda: run("encoder", np.array([99])), "tokens"),
    (lambda: model("GPT-4"), "name"),
    (lambda: architecture_for("image"), "output"),
    (lambda: machine_for(1, False), "writes_tokens"),
    (lambda: machine_for(True, None), "reads_separate_input"),
])
def test_bad_input_raises_value_error_naming_the_argument(call, words):
    with pytest.raises(ValueError, match=words):
        call()

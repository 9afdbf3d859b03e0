"""The three machines: what the real block reads (measured) against their masks, and the output rule."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from conftest import load_snippet
from primer.architectures import EXAMPLE_MODEL, OUTPUTS, SOURCE, TARGET, architecture_for, influence, machine_for, run
from primer.machines import MACHINES, masks
from primer.models import model
from primer.rounding import is_rounding


@pytest.mark.parametrize("machine", MACHINES)
def test_measured_reads_equal_the_masks_cell_for_cell(machine):
    self_mask, cross_mask = masks(machine, len(TARGET), len(SOURCE))
    own, src = influence(machine)
    assert np.array_equal(own > 1e-3, self_mask)     # open cells move visibly, masked ones by rounding at most
    assert is_rounding(own[~self_mask])
    if cross_mask is None:
        assert src is None
    else:
        assert np.array_equal(src > 1e-3, cross_mask)   # every output reads every source token


def test_decoder_outputs_do_not_move_when_a_future_token_changes():
    own, _ = influence("decoder", tokens=np.array([1, 2, 3, 4, 5, 6]))
    assert is_rounding(np.triu(own, k=1)) and np.all(np.diag(own) > 1e-3)


def test_run_shapes():
    assert run("encoder", TARGET).shape == (len(TARGET), 16)
    assert run("decoder", TARGET).shape == (len(TARGET), 32)
    assert run("encoder-decoder", TARGET, SOURCE).shape == (len(TARGET), 32)


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


# ---- one size, opposite masks (chapter 7)

def test_bert_base_and_gpt_1_have_equal_blocks_and_opposite_masks():
    from primer.architectures import same_size

    bert, gpt = same_size(("BERT-base", "GPT-1"))
    assert (bert["mask"], gpt["mask"]) == ("full", "causal")
    for key in ("n_layers", "d_model", "n_heads", "d_ff", "block_weights"):
        assert bert[key] == gpt[key]
    assert bert["block_weights"] == 12 * (4 * 768 * 768 + 2 * 768 * 3072 + 4 * 768 + 3072 + 768)


# ---- the chapter's numpy core agrees with primer (chapter 9)

def test_chapter_9_core_numpy_equals_primer_on_random_inputs():
    from primer.attention import attention

    core = load_snippet("09-choosing/core_numpy.py")
    rng = np.random.default_rng(9)
    for machine in MACHINES:
        for n, m in ((1, 1), (4, 3), (6, 2)):
            ours, theirs = core["masks_for"](machine, n, m), masks(machine, n, m)
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

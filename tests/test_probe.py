"""The one dependence probe: change an input, measure how far each output row moved."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from primer import attention, causal_mask
from primer.config import Config
from primer.inputs.choosing import SEEDS, SOURCE, TARGET
from primer.machines import MACHINES, machine_masks
from primer.probe import influence, movement, nudge, run_seeded
from primer.rounding import is_rounding

TINY = Config()


@given(st.lists(st.integers(0, 9), min_size=1, max_size=8), st.data())
def test_nudge_changes_one_id_only(tokens, data):
    j = data.draw(st.integers(0, len(tokens) - 1))
    out = nudge(np.array(tokens), j, 10)
    assert out[j] == (tokens[j] + 1) % 10
    assert np.array_equal(np.delete(out, j), np.delete(np.array(tokens), j))


@given(st.integers(2, 8), st.integers(0, 2**32 - 1))
def test_under_a_causal_mask_earlier_rows_never_move(n, seed):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 4))

    def run(x):
        return attention(x, x, x, causal_mask(len(x)))[0]

    variants = []
    for j in range(n):
        changed = x.copy()
        changed[j] += 1.0
        variants.append(changed)
    moved = movement(run, x, variants)  # [n outputs, n inputs]
    assert moved.shape == (n, n)
    assert is_rounding(moved[np.triu_indices(n, 1)])  # a masked weight is exp(-inf) = 0
    assert np.all(np.diag(moved) > 0)


def test_a_longer_variant_compares_only_the_old_rows():
    moved = movement(lambda t: np.cumsum(np.asarray(t, float))[:, None], [1, 2, 3], [[1, 2, 3, 4], [1, 5, 3]])
    assert moved.tolist() == [[0.0, 0.0], [0.0, 3.0], [0.0, 3.0]]


# ---- the seeded machines of chapter 9: what the real block reads (measured) against their masks


@pytest.mark.parametrize("machine", MACHINES)
def test_measured_reads_equal_the_masks_cell_for_cell(machine):
    self_mask, cross_mask = machine_masks(machine, len(TARGET), len(SOURCE))
    own, src = influence(machine, TARGET, SOURCE, TINY, SEEDS)
    assert np.array_equal(own > 1e-3, self_mask)  # open cells move visibly, masked ones by rounding at most
    assert is_rounding(own[~self_mask])
    if cross_mask is None:
        assert src is None
    else:
        assert np.array_equal(src > 1e-3, cross_mask)  # every output reads every source token


def test_decoder_outputs_do_not_move_when_a_future_token_changes():
    own, _ = influence("decoder", np.array([1, 2, 3, 4, 5, 6]), SOURCE, TINY, SEEDS)
    assert is_rounding(np.triu(own, k=1)) and np.all(np.diag(own) > 1e-3)


def test_run_shapes():
    assert run_seeded("encoder", TARGET, TINY, SEEDS).shape == (len(TARGET), 16)
    assert run_seeded("decoder", TARGET, TINY, SEEDS).shape == (len(TARGET), 32)
    assert run_seeded("encoder-decoder", TARGET, TINY, SEEDS, SOURCE).shape == (len(TARGET), 32)

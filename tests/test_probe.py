"""The one dependence probe: change an input, measure how far each output row moved."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from primer import attention, causal_mask
from primer.probe import movement, nudge
from primer.rounding import is_rounding


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
    moved = movement(run, x, variants)                     # [n outputs, n inputs]
    assert moved.shape == (n, n)
    assert is_rounding(moved[np.triu_indices(n, 1)])       # a masked weight is exp(-inf) = 0
    assert np.all(np.diag(moved) > 0)


def test_a_longer_variant_compares_only_the_old_rows():
    moved = movement(lambda t: np.cumsum(np.asarray(t, float))[:, None], [1, 2, 3], [[1, 2, 3, 4], [1, 5, 3]])
    assert moved.tolist() == [[0.0, 0.0], [0.0, 3.0], [0.0, 3.0]]

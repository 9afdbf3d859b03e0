import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from primer import causal_mask
from primer.position import (
    ORDER_HEADS,
    ORDER_SWAP,
    ORDER_W,
    ORDER_X,
    add_positions,
    permutation_gap,
    sinusoidal_encoding,
)
from primer.self_cross_heads import multi_head_attention

even = st.integers(1, 32).map(lambda k: 2 * k)


def test_first_position_is_sin_0_cos_0():
    pe = sinusoidal_encoding(3, 6)
    assert pe[0].tolist() == [0.0, 1.0, 0.0, 1.0, 0.0, 1.0]
    assert np.isclose(pe[1, 0], np.sin(1.0)) and np.isclose(pe[1, 1], np.cos(1.0))
    assert np.isclose(pe[2, 2], np.sin(2 / 10_000 ** (2 / 6)))


@given(st.integers(1, 80), even)
def test_each_pair_lies_on_the_unit_circle(n, d):
    pe = sinusoidal_encoding(n, d)
    assert pe.shape == (n, d)
    assert np.allclose(pe[:, 0::2] ** 2 + pe[:, 1::2] ** 2, 1.0)


@given(st.integers(0, 50), st.integers(0, 50), even)
def test_a_fixed_offset_is_a_fixed_rotation(pos, k, d):
    # PE(pos + k) = R_k PE(pos), with R_k independent of pos: relative position is linear.
    pe = sinusoidal_encoding(pos + k + 1, d)
    omega = 1 / 10_000 ** (np.arange(0, d, 2) / d)
    c, s = np.cos(k * omega), np.sin(k * omega)
    sin_, cos_ = pe[pos, 0::2], pe[pos, 1::2]
    assert np.allclose(pe[pos + k, 0::2], sin_ * c + cos_ * s)
    assert np.allclose(pe[pos + k, 1::2], cos_ * c - sin_ * s)


def test_every_position_is_distinct():
    pe = sinusoidal_encoding(64, 128)
    dists = np.linalg.norm(pe[:, None] - pe[None], axis=-1)
    assert np.all(dists[~np.eye(64, dtype=bool)] > 0.1)


def block(x):
    return multi_head_attention(x, x, *ORDER_W, n_heads=ORDER_HEADS)[0]


@settings(max_examples=30)
@given(st.integers(0, 2**32 - 1), st.integers(2, 7))
def test_self_attention_without_positions_is_permutation_equivariant(seed, n):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 8))
    perm = rng.permutation(n)
    assert permutation_gap(block, x, perm) < 1e-12


def test_the_two_sentences_without_and_with_positions():
    swap = list(ORDER_SWAP)
    assert permutation_gap(block, ORDER_X, swap) < 1e-12
    assert np.max(np.abs(block(ORDER_X)[1] - block(ORDER_X[swap])[1])) < 1e-12
    with_pe = lambda x: block(add_positions(x))  # noqa: E731
    assert permutation_gap(with_pe, ORDER_X, swap) > 0.5
    assert np.max(np.abs(with_pe(ORDER_X)[1] - with_pe(ORDER_X[swap])[1])) > 0.5
    assert f"{permutation_gap(with_pe, ORDER_X, swap):.3f}" == "3.793"
    assert f"{np.max(np.abs(with_pe(ORDER_X)[1] - with_pe(ORDER_X[swap])[1])):.3f}" == "1.525"


def test_a_causal_mask_already_breaks_equivariance():
    f = lambda x: multi_head_attention(x, x, *ORDER_W, n_heads=ORDER_HEADS, mask=causal_mask(3))[0]  # noqa: E731
    assert permutation_gap(f, ORDER_X, list(ORDER_SWAP)) > 0.1


def test_add_positions():
    x = np.zeros((4, 6))
    assert np.array_equal(add_positions(x), sinusoidal_encoding(4, 6))

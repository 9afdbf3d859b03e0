import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from primer import causal_mask, window_mask
from primer.gradcheck import (
    gradient_reach,
    max_relative_error,
    numerical_jacobian,
    self_attention,
    self_attention_jacobian,
)
from primer.inputs.attention import GRAD_W_K, GRAD_W_Q, GRAD_W_V, GRAD_X


def test_numerical_jacobian_of_a_linear_map_is_the_matrix():
    rng = np.random.default_rng(0)
    w = rng.normal(size=(3, 2))
    jac = numerical_jacobian(lambda x: x @ w, rng.normal(size=(4, 3)))
    assert jac.shape == (4, 2, 4, 3)
    expected = np.einsum("im,ba->iamb", np.eye(4), w)
    assert np.allclose(jac, expected, atol=1e-8)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 5), st.integers(1, 4), st.integers(1, 3), st.booleans())
def test_analytic_jacobian_matches_finite_differences(seed, n, d, d_v, causal):
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, d))
    w_q, w_k = rng.normal(scale=0.7, size=(d, 3)), rng.normal(scale=0.7, size=(d, 3))
    w_v = rng.normal(size=(d, d_v))
    mask = causal_mask(n) if causal else None
    analytic = self_attention_jacobian(x, w_q, w_k, w_v, mask)
    numeric = numerical_jacobian(lambda z: self_attention(z, w_q, w_k, w_v, mask), x)
    assert analytic.shape == (n, d_v, n, d)
    assert np.allclose(analytic, numeric, atol=1e-7)


def test_without_a_mask_every_pair_has_a_gradient_path():
    reach = gradient_reach(self_attention_jacobian(GRAD_X, GRAD_W_Q, GRAD_W_K, GRAD_W_V))
    assert reach.shape == (6, 6)
    assert np.all(reach > 1e-3)


def test_the_causal_mask_cuts_the_future_gradients_to_exactly_zero():
    n = GRAD_X.shape[0]
    reach = gradient_reach(self_attention_jacobian(GRAD_X, GRAD_W_Q, GRAD_W_K, GRAD_W_V, causal_mask(n)))
    assert np.all(reach[~causal_mask(n)] == 0.0)
    assert np.all(reach[causal_mask(n)] > 1e-3)
    assert int((reach > 0).sum()) == n * (n + 1) // 2


def test_window_mask_reach_is_the_band():
    reach = gradient_reach(self_attention_jacobian(GRAD_X, GRAD_W_Q, GRAD_W_K, GRAD_W_V, window_mask(6, 2)))
    assert np.array_equal(reach > 0, window_mask(6, 2))


def test_the_page_check_agrees_to_well_under_a_millionth():
    for mask in (None, causal_mask(6)):
        analytic = self_attention_jacobian(GRAD_X, GRAD_W_Q, GRAD_W_K, GRAD_W_V, mask)
        numeric = numerical_jacobian(lambda x, mask=mask: self_attention(x, GRAD_W_Q, GRAD_W_K, GRAD_W_V, mask), GRAD_X)
        assert max_relative_error(analytic, numeric) < 1e-6


def test_max_relative_error():
    assert max_relative_error([1.0, 2.0], [1.0, 2.0]) == 0.0
    assert max_relative_error([1.0, 0.0], [1.1, 0.0]) == pytest.approx(0.1 / 1.1)

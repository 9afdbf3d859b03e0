import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from primer import attention, causal_mask


def naive(q, k, v, mask):
    out = np.zeros((q.shape[0], v.shape[1]))
    for i in range(q.shape[0]):
        s = np.array([q[i] @ k[j] / np.sqrt(q.shape[1]) for j in range(k.shape[0])])
        s = np.where(mask[i], s, -np.inf)
        w = np.exp(s - s.max())
        out[i] = (w / w.sum()) @ v
    return out


@settings(max_examples=50)
@given(st.integers(1, 8), st.integers(0, 4), st.integers(1, 6), st.integers(1, 5), st.integers(0, 2**32 - 1))
def test_matches_a_loop_over_queries(n_q, extra, d_k, d_v, seed):
    rng = np.random.default_rng(seed)
    n_k = n_q + extra
    q, k, v = rng.normal(size=(n_q, d_k)), rng.normal(size=(n_k, d_k)), rng.normal(size=(n_k, d_v))
    mask = causal_mask(n_q, n_k)
    out, w = attention(q, k, v, mask)
    assert out.shape == (n_q, d_v) and w.shape == (n_q, n_k)
    assert np.allclose(out, naive(q, k, v, mask))


def test_leading_axes_broadcast():
    rng = np.random.default_rng(0)
    q = rng.normal(size=(2, 3, 5, 4))  # [batch, heads, n_q, d_k]
    k = rng.normal(size=(3, 6, 4))  # shared over the batch
    v = rng.normal(size=(2, 3, 6, 2))
    out, w = attention(q, k, v, causal_mask(5, 6))
    assert out.shape == (2, 3, 5, 2) and w.shape == (2, 3, 5, 6)
    assert np.allclose(out[1, 2], attention(q[1, 2], k[2], v[1, 2], causal_mask(5, 6))[0])


def test_no_mask_is_full_attention():
    rng = np.random.default_rng(1)
    q, k, v = rng.normal(size=(3, 4)), rng.normal(size=(3, 4)), rng.normal(size=(3, 2))
    _, w = attention(q, k, v)
    assert np.all(w > 0)

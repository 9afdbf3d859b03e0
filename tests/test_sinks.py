import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from primer import attention, causal_mask
from primer.rounding import is_rounding
from primer.sinks import sink_attention, sink_softmax


def test_a_very_low_sink_logit_is_plain_softmax():
    rng = np.random.default_rng(0)
    q, k, v = rng.normal(size=(2, 5, 4)), rng.normal(size=(2, 5, 4)), rng.normal(size=(2, 5, 3))
    out, w = sink_attention(q, k, v, np.array([-1e4, -1e4]), causal_mask(5))
    ref, ref_w = attention(q, k, v, causal_mask(5))
    assert is_rounding(w - ref_w) and is_rounding(out - ref)


@given(st.floats(-5, 5), st.integers(0, 2**16))
def test_the_sink_takes_weight_from_every_key_in_the_same_ratio(sink, seed):
    scores = np.random.default_rng(seed).normal(size=(1, 3, 4))
    w = sink_softmax(scores, np.array([sink]))
    e = np.exp(scores)
    assert is_rounding(w - e / (e.sum(-1, keepdims=True) + np.exp(sink)))
    assert (w.sum(-1) < 1).all()


def test_a_row_with_no_open_key_gives_its_weight_to_the_sink_and_outputs_zero():
    mask = np.array([[False, False], [True, True]])
    out, w = sink_attention(np.ones((2, 4)), np.ones((2, 4)), np.ones((2, 3)), 0.0, mask)
    assert w[0].tolist() == [0.0, 0.0] and out[0].tolist() == [0.0, 0.0, 0.0]  # exp(-inf) = 0 exactly
    assert 0 < w[1].sum() < 1


def test_one_sink_per_head():
    scores = np.zeros((2, 1, 3))
    w = sink_softmax(scores, np.array([0.0, np.log(3.0)]))  # head 0: 1/4 per key; head 1: 1/6 per key
    assert np.allclose(w[0], 0.25, rtol=0, atol=1e-15) and np.allclose(w[1], 1 / 6, rtol=0, atol=1e-15)


@given(st.integers(0, 2**16), st.floats(-4, 4))
def test_the_sink_only_rescales_each_row_by_a_sigmoid_of_its_logsumexp(seed, sink):
    # out_sink = out * e^lse / (e^lse + e^sink): how a kernel can add a sink after the fact
    rng = np.random.default_rng(seed)
    q, k, v = rng.normal(size=(5, 4)), rng.normal(size=(5, 4)), rng.normal(size=(5, 3))
    mask = causal_mask(5)
    scores = np.where(mask, q @ k.T / 2.0, -np.inf)
    lse = np.log(np.exp(scores).sum(axis=1))
    rescaled = attention(q, k, v, mask)[0] / (1 + np.exp(sink - lse))[:, None]
    assert is_rounding(sink_attention(q, k, v, sink, mask)[0] - rescaled)

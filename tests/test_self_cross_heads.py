import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from site_reader import load_snippet

from primer import attention, causal_mask, full_mask
from primer.inputs.self_cross_heads import (
    APPLE_D_HEAD,
    APPLE_FEATURES,
    APPLE_HEADS,
    APPLE_RELATIONS,
    APPLE_STRENGTH,
    APPLE_TOKENS,
    APPLE_X,
    CROSS_SOURCE,
    CROSS_SOURCE_X,
    CROSS_TARGET,
    CROSS_TARGET_X,
)
from primer.self_cross_heads import (
    merge_heads,
    multi_head_attention,
    relation_projections,
    split_heads,
    total_variation,
    wide_head_weights,
)


def apple_projections():
    return relation_projections(APPLE_FEATURES, APPLE_HEADS, APPLE_RELATIONS, APPLE_D_HEAD, APPLE_STRENGTH)


seeds = st.integers(0, 2**32 - 1)


@given(seeds, st.integers(1, 4), st.integers(1, 6), st.integers(1, 5))
def test_merge_undoes_split(seed, h, n, d_h):
    x = np.random.default_rng(seed).normal(size=(n, h * d_h))
    parts = split_heads(x, h)
    assert parts.shape == (h, n, d_h)
    assert np.array_equal(parts[1 % h], x[:, (1 % h) * d_h : ((1 % h) + 1) * d_h])
    assert np.array_equal(merge_heads(parts), x)


def naive_mha(x_q, x_kv, w_q, w_k, w_v, w_o, h, mask):
    d_k, d_v = w_q.shape[1] // h, w_v.shape[1] // h
    outs = []
    for i in range(h):
        q = x_q @ w_q[:, i * d_k : (i + 1) * d_k]
        k = x_kv @ w_k[:, i * d_k : (i + 1) * d_k]
        v = x_kv @ w_v[:, i * d_v : (i + 1) * d_v]
        outs.append(attention(q, k, v, mask)[0])
    return np.concatenate(outs, axis=1) @ w_o


@settings(max_examples=40)
@given(seeds, st.integers(1, 4), st.integers(1, 5), st.integers(0, 3), st.integers(1, 4), st.booleans())
def test_matches_one_attention_per_head(seed, h, n_q, extra, d_h, causal):
    rng = np.random.default_rng(seed)
    d, n_k = 6, n_q + extra
    x_q, x_kv = rng.normal(size=(n_q, d)), rng.normal(size=(n_k, d))
    w_q, w_k, w_v = (rng.normal(size=(d, h * d_h)) for _ in range(3))
    w_o = rng.normal(size=(h * d_h, d))
    mask = causal_mask(n_q, n_k) if causal else full_mask(n_q, n_k)
    out, weights = multi_head_attention(x_q, x_kv, w_q, w_k, w_v, w_o, h, mask)
    assert out.shape == (n_q, d) and weights.shape == (h, n_q, n_k)
    assert np.allclose(out, naive_mha(x_q, x_kv, w_q, w_k, w_v, w_o, h, mask))
    assert np.allclose(weights.sum(axis=-1), 1.0)


def test_one_head_without_w_o_is_plain_attention():
    rng = np.random.default_rng(2)
    x = rng.normal(size=(4, 3))
    w_q, w_k, w_v = (rng.normal(size=(3, 3)) for _ in range(3))
    out, w = multi_head_attention(x, x, w_q, w_k, w_v, None, 1)
    ref_out, ref_w = attention(x @ w_q, x @ w_k, x @ w_v)
    assert np.allclose(out, ref_out) and np.allclose(w[0], ref_w)


def apple_weights():
    w_q, w_k, w_v = apple_projections()
    return multi_head_attention(APPLE_X, APPLE_X, w_q, w_k, w_v, None, len(APPLE_HEADS))[1], wide_head_weights(
        APPLE_X, w_q, w_k
    )


def test_each_head_holds_its_relation():
    weights, _ = apple_weights()
    top = {
        name: {
            APPLE_TOKENS[i]: APPLE_TOKENS[int(np.argmax(weights[h, i]))]
            for i in range(len(APPLE_TOKENS))
            if weights[h, i].max() > 0.4
        }
        for h, name in enumerate(APPLE_HEADS)
    }
    assert top["sweet"] == {"苹果": "甜", "甜": "苹果"}
    assert top["bought"] == {"苹果": "买", "我": "买", "买": "苹果"}
    assert top["amount"] == {"苹果": "斤", "三": "苹果", "斤": "苹果"}
    buy = APPLE_TOKENS.index("买")  # two classes to look for: the weight split evenly
    assert np.isclose(weights[1, buy, APPLE_TOKENS.index("苹果")], weights[1, buy, APPLE_TOKENS.index("我")])
    assert weights[1, buy, APPLE_TOKENS.index("苹果")] > 0.45


def test_one_wide_head_gives_one_row_that_equals_no_head():
    weights, wide = apple_weights()
    apple = APPLE_TOKENS.index("苹果")
    assert np.allclose(wide.sum(axis=-1), 1.0)
    tv = total_variation(weights[:, apple], wide[apple])
    assert tv.shape == (3,) and np.all(tv > 0.5)
    assert [f"{100 * weights[h, apple].max():.1f}" for h in range(3)] == ["90.9"] * 3
    partners = [APPLE_TOKENS.index(w) for w in ("甜", "买", "斤")]
    assert [f"{100 * wide[apple, j]:.1f}" for j in partners] == ["28.4"] * 3


def test_wide_head_scores_are_the_sum_of_the_head_scores():
    w_q, w_k, _ = apple_projections()
    q, k = split_heads(APPLE_X @ w_q, 3), split_heads(APPLE_X @ w_k, 3)
    summed = (q @ np.swapaxes(k, -1, -2)).sum(axis=0) / np.sqrt(12)
    e = np.exp(summed - summed.max(axis=-1, keepdims=True))
    assert np.allclose(wide_head_weights(APPLE_X, w_q, w_k), e / e.sum(axis=-1, keepdims=True))


def test_cross_attention_example_aligns_words():
    out, w = attention(CROSS_TARGET_X, CROSS_SOURCE_X, CROSS_SOURCE_X, full_mask(3, 5))
    assert w.shape == (3, 5) and out.shape == (3, 3)
    aligned = [CROSS_SOURCE[int(j)] for j in w.argmax(axis=1)]
    assert dict(zip(CROSS_TARGET, aligned)) == {"I": "我", "bought": "买", "apples": "苹果"}
    assert [f"{100 * x:.0f}" for x in w[0]] == ["72", "7", "7", "7", "7"]


def test_total_variation():
    assert total_variation([1.0, 0.0], [0.0, 1.0]) == 1.0
    assert total_variation([0.5, 0.5], [0.5, 0.5]) == 0.0


def test_chapter_4_core_numpy_equals_primer():
    from primer.position import sinusoidal_encoding

    core = load_snippet("04-self-cross-heads/core_numpy.py")
    rng = np.random.default_rng(9)
    for h, n_q, n_k, d_h in ((1, 1, 1, 2), (2, 3, 5, 3), (4, 6, 2, 2)):
        d = 8
        x = rng.normal(size=(n_q, h * d_h))
        assert np.array_equal(core["split_heads"](x, h), split_heads(x, h))
        assert np.array_equal(core["merge_heads"](split_heads(x, h)), x)
        x_q, x_kv = rng.normal(size=(n_q, d)), rng.normal(size=(n_k, d))
        w_q, w_k, w_v = (rng.normal(size=(d, h * d_h)) for _ in range(3))
        w_o = rng.normal(size=(h * d_h, d))
        assert np.allclose(
            core["multi_head_attention"](x_q, x_kv, w_q, w_k, w_v, w_o, h),
            multi_head_attention(x_q, x_kv, w_q, w_k, w_v, w_o, h)[0],
        )
        assert np.allclose(core["sinusoidal_encoding"](n_k + 3, 2 * d_h), sinusoidal_encoding(n_k + 3, 2 * d_h))

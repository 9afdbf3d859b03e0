"""PyTorch's conventions against ours, in-process on random inputs: each chapter's twin (docs/snippets/<chapter>/
<name>_torch.py) or torch itself against the numpy tab, where PyTorch spells a convention differently.

tests/test_torch_twins.py runs the twins as a reader runs them and compares what they print; this file reaches the
conventions the printed output cannot show (float64 both sides: bounds are a few ulps of the values).
"""

import numpy as np
import pytest
from site_reader import load_snippet

torch = pytest.importorskip("torch")
F = torch.nn.functional

# ---- the conventions, chapter by chapter


def rand(rng, *shape):
    return rng.normal(size=shape)


def test_ch1_one_bias_of_ours_is_bias_ih_with_bias_hh_zero():
    ns, core = load_snippet("01-rnn/core_numpy_torch.py"), load_snippet("01-rnn/core_numpy.py")
    rng = np.random.default_rng(1)
    x, w, u, b = rand(rng, 7, 3), rand(rng, 5, 5) * 0.3, rand(rng, 5, 3), rand(rng, 5)
    cell = torch.nn.RNNCell(3, 5, dtype=torch.float64)
    with torch.no_grad():
        for p, value in ((cell.weight_hh, w), (cell.weight_ih, u), (cell.bias_ih, b), (cell.bias_hh, 0 * b)):
            p.copy_(torch.from_numpy(value))
    ours = torch.stack(ns["rnn_forward"](torch.from_numpy(x), cell)).detach().numpy()
    assert np.abs(ours - core["rnn_forward"](x, w, u, b)).max() < 1e-12
    with torch.no_grad():
        cell.bias_hh.copy_(torch.from_numpy(b))  # b in both biases: counted twice
    twice = torch.stack(ns["rnn_forward"](torch.from_numpy(x), cell)).detach().numpy()
    assert np.abs(twice - core["rnn_forward"](x, w, u, b)).max() > 1e-3


def test_ch1_autograd_gives_the_numpy_bptt_gradients():
    ns, core = load_snippet("01-rnn/core_numpy_torch.py"), load_snippet("01-rnn/core_numpy.py")
    h = np.stack([t.detach().numpy() for t in ns["h"]])
    grads = np.stack([t.grad.numpy() for t in ns["h"]])
    carry, w = core["dh_out"][-1], core["w"]
    for t in reversed(range(len(h))):  # numpy's walk back from the loss
        assert np.abs(grads[t] - carry).max() <= 1e-12 * np.abs(carry).max() + 1e-300
        carry = w.T @ (carry * (1 - h[t] ** 2))


def test_ch3_torch_var_divides_by_n_minus_1_unless_told():
    ns = load_snippet("03-attention/core_numpy_torch.py")
    a = np.random.default_rng(3).normal(size=5)
    assert abs(ns["var"](torch.from_numpy(a)).item() - a.var()) < 1e-14
    assert abs(torch.from_numpy(a).var().item() - a.var() * 5 / 4) < 1e-14


def test_ch4_nn_multihead_attention_stores_the_weights_transposed():
    ns = load_snippet("04-self-cross-heads/core_numpy_torch.py")
    rng = np.random.default_rng(4)
    x, (w_q, w_k, w_v, w_o) = torch.from_numpy(rand(rng, 3, 8)), (torch.from_numpy(rand(rng, 8, 8)) for _ in range(4))
    mha = torch.nn.MultiheadAttention(8, 2, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.out_proj.weight.copy_(w_o.T)
        mha.in_proj_weight.copy_(torch.cat([w_q.T, w_k.T, w_v.T]))
        ours = ns["multi_head_attention"](x, x, w_q, w_k, w_v, w_o, 2)
        theirs = mha(x[None], x[None], x[None], need_weights=False)[0][0]
        assert (ours - theirs).abs().max() < 1e-12
        mha.in_proj_weight.copy_(torch.cat([w_q, w_k, w_v]))  # not transposed
        assert (ours - mha(x[None], x[None], x[None], need_weights=False)[0][0]).abs().max() > 1e-3


def masks(rng, n):
    """The causal mask and random masks with at least one open key a row."""
    yield np.tril(np.ones((n, n), bool))
    for _ in range(3):
        m = rng.random((n, n)) < 0.5
        m[np.arange(n), rng.integers(0, n, n)] = True
        yield m


def test_ch5_sdpa_reads_our_mask_and_multihead_attention_reads_its_inverse():
    ns, core = load_snippet("05-mask/core_numpy_torch.py"), load_snippet("05-mask/core_numpy.py")
    rng = np.random.default_rng(5)
    n, d = 6, 4
    mha = torch.nn.MultiheadAttention(d, 1, bias=False, batch_first=True, dtype=torch.float64)
    with torch.no_grad():
        mha.in_proj_weight.copy_(torch.cat([torch.eye(d, dtype=torch.float64)] * 3))  # q, k, v as given
        mha.out_proj.weight.copy_(torch.eye(d, dtype=torch.float64))
    for mask in masks(rng, n):
        q, k, v = rand(rng, n, d), rand(rng, n, d), rand(rng, n, d)
        tq, tk, tv, tm = map(torch.from_numpy, (q, k, v, mask))
        ours = ns["attention"](tq, tk, tv, tm)
        assert np.abs(ours.numpy() - core["attention"](q, k, v, mask)).max() < 1e-12
        assert np.abs(ns["masked_softmax"](tq @ tk.T, tm).numpy() - core["masked_softmax"](q @ k.T, mask)).max() < 1e-12
        with torch.no_grad():
            inverse = mha(tq[None], tk[None], tv[None], attn_mask=~tm, need_weights=False)[0][0]
            same = mha(tq[None], tk[None], tv[None], attn_mask=tm, need_weights=False)[0][0]
        assert (inverse - ours).abs().max() < 1e-12
        assert not torch.allclose(same, ours)


def test_ch5_a_row_with_no_open_key_is_nan_in_masked_softmax_and_zeros_in_sdpa():
    ns, core = load_snippet("05-mask/core_numpy_torch.py"), load_snippet("05-mask/core_numpy.py")
    rng = np.random.default_rng(6)
    mask = np.tril(np.ones((4, 4), bool))
    mask[2] = False
    q, k, v = rand(rng, 4, 3), rand(rng, 4, 3), rand(rng, 4, 3)
    with np.errstate(invalid="ignore"):
        want = core["masked_softmax"](q @ k.T, mask)
    got = ns["masked_softmax"](*map(torch.from_numpy, (q @ k.T, mask))).numpy()
    assert np.isnan(want[2]).all() and np.isnan(got[2]).all()
    out = ns["attention"](*map(torch.from_numpy, (q, k, v, mask)))
    assert torch.all(out[2] == 0) and not torch.isnan(out).any()


def test_ch6_masking_rule_draws_alike_in_distribution():
    """Over 3000 seeds each, the mean number of [MASK] tokens and of replaced words (3 picked, 80 % / 10 %)."""
    ns, core = load_snippet("06-encoder/core_numpy_torch.py"), load_snippet("06-encoder/core_numpy.py")
    sentence, vocab, ids = ns["sentence"], ns["vocab"], ns["ids"]
    counts = {"numpy": np.zeros((3000, 2)), "torch": np.zeros((3000, 2))}
    for s in range(3000):
        masked = [
            vocab[i]
            for i in ns["mask_tokens"](ids, len(vocab) - 1, len(vocab) - 1, generator=torch.Generator().manual_seed(s))
        ]
        for name, words in (("numpy", core["mask_tokens"](sentence, seed=s)), ("torch", masked)):
            counts[name][s] = [
                sum(w == "[MASK]" for w in words),
                sum(w not in (o, "[MASK]") for w, o in zip(words, sentence)),
            ]
    expected = [3 * 0.8, 3 * 0.1 * (1 - 1 / 13)]  # 13 words: a random one is the same word 1 time in 13 (at most)
    for name, c in counts.items():  # standard error of a mean: about 0.013 and 0.006; bounds of 6 of them
        assert abs(c[:, 0].mean() - expected[0]) < 0.08, name
        assert abs(c[:, 1].mean() - expected[1]) < 0.04, name


def test_ch10_the_cached_logits_equal_numpys_and_recomputing_and_is_causal_on_a_step_changes_them():
    ns, core = load_snippet("10-kv-cache/core_numpy_torch.py"), load_snippet("10-kv-cache/core_numpy.py")
    assert ns["cached"].shape == core["cached"].shape == (5, 10)
    assert np.abs(ns["cached"].numpy() - core["cached"]).max() < 1e-12  # the page's own example, step by step
    assert np.abs(ns["full"].numpy() - core["full"]).max() < 1e-12
    rng = np.random.default_rng(10)
    for n in (1, 2, 7):
        w, x, w_out = (
            [rand(rng, 6, 3) for _ in range(3)],
            rand(rng, n, 6) / 2,
            rand(rng, 3, 9),
        )  # / 2: no softmax saturates
        (tw_q, tw_k, tw_v), tx, tw_out = map(torch.from_numpy, w), torch.from_numpy(x), torch.from_numpy(w_out)
        tk, tv = torch.zeros(0, 3, dtype=torch.float64), torch.zeros(0, 3, dtype=torch.float64)
        nk, nv = np.zeros((0, 3)), np.zeros((0, 3))
        logits, naive = [], []
        for x_new, tx_new in zip(x, tx):
            out, tk, tv = ns["decode_step"](tx_new, tk, tv, tw_q, tw_k, tw_v)
            want, nk, nv = core["decode_step"](x_new, nk, nv, *w)
            assert np.abs(out.numpy() - want).max() < 1e-12
            logits.append(out @ tw_out)
            # the naive step: is_causal with 1 query and t keys reads key 0 only
            naive.append(F.scaled_dot_product_attention((tx_new @ tw_q)[None], tk, tv, is_causal=True)[0] @ tw_out)
        full = F.scaled_dot_product_attention(tx @ tw_q, tx @ tw_k, tx @ tw_v, is_causal=True) @ tw_out  # [n, vocab]
        assert (torch.stack(logits) - full).abs().max() < 1e-12
        naive = torch.stack(naive)
        assert (naive - tv[0] @ tw_out).abs().max() < 1e-12
        assert (naive[0] - full[0]).abs().max() < 1e-12  # one key: top-left and bottom-right agree
        if n > 1:
            assert (naive[1:] - full[1:]).abs().max() > 1e-3


@pytest.mark.parametrize("t", [0.0, -1.0, float("nan")])
def test_ch12_both_twins_refuse_a_temperature_that_is_not_positive(t):
    ns, core = (
        load_snippet("12-sampling-pipeline/core_sampling_torch.py"),
        load_snippet("12-sampling-pipeline/core_sampling.py"),
    )
    z = np.array([2.0, 1.0, 0.5])
    with pytest.raises(ValueError, match=r"^temperature must be > 0, got ") as numpy_error:
        core["temperature_softmax"](z, t)
    with pytest.raises(ValueError, match=r"^temperature must be > 0, got ") as torch_error:
        ns["temperature_softmax"](torch.from_numpy(z), t)
    assert str(torch_error.value) == str(numpy_error.value)


PROBS_CASES = [
    np.array([0.4, 0.2, 0.2, 0.1, 0.1]),
    np.array([0.25] * 4),
    np.random.default_rng(12).dirichlet(np.ones(9)),
]


@pytest.mark.parametrize("probs", PROBS_CASES)
def test_ch12_filters_give_primers_distributions(probs):
    from primer.decoding import top_k_filter, top_p_filter

    ns = load_snippet("12-sampling-pipeline/core_sampling_torch.py")
    ks, ps = [None, *range(1, probs.size + 1)], [None, 0.05, 0.3, 0.5, 0.6, 0.75, 0.9, 0.999, 1.0]
    for k, p in ((k, p) for k in ks for p in ps):
        want = probs if k is None else top_k_filter(probs, k)
        want = want if p is None else top_p_filter(want, p)
        got = ns["top_k_top_p"](torch.from_numpy(probs), k, p).numpy()
        assert np.abs(got - want).max() < 1e-12, (k, p)


@pytest.mark.parametrize(
    "t, top_k, top_p", [(1.0, None, None), (0.5, None, None), (1.5, 3, None), (1.0, None, 0.9), (2.0, 4, 0.8)]
)
def test_ch12_torch_and_numpy_draws_follow_the_same_distribution(t, top_k, top_p):
    """Not the samples (the generators differ): each side's frequencies over 100 000 draws against primer's
    probabilities, within 0.01 (about 6 standard errors at p = 0.5)."""
    from primer.decoding import sampling_probs

    ns, core = (
        load_snippet("12-sampling-pipeline/core_sampling_torch.py"),
        load_snippet("12-sampling-pipeline/core_sampling.py"),
    )
    z = np.array([2.0, 1.0, 0.5, -0.5, -1.5])
    want = sampling_probs(z, t, top_k=top_k, top_p=top_p)
    assert (
        np.abs(ns["temperature_softmax"](torch.from_numpy(z), t).numpy() - core["temperature_softmax"](z, t)).max()
        < 1e-12
    )
    ids = ns["sample"](torch.from_numpy(z), t, torch.Generator().manual_seed(12), n=100_000, top_k=top_k, top_p=top_p)
    assert np.abs(np.bincount(ids.numpy(), minlength=5) / 1e5 - want).max() < 0.01
    assert all(want[ids.unique().numpy()] > 0), "an id of probability 0 came up"
    if top_k is None and top_p is None:  # the numpy tab has no filters
        rng = np.random.default_rng(12)
        drawn = [core["sample"](z, t, rng) for _ in range(20_000)]
        assert np.abs(np.bincount(drawn, minlength=5) / 2e4 - want).max() < 0.022  # 6 standard errors at 20 000

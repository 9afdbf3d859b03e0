"""Chapter 5's table of library conventions, measured against the installed torch and against primer."""

import numpy as np
import pytest

from primer import attention, causal_mask
from primer.conventions import CONVENTIONS


class _Torch:
    """torch, imported on first use: only in the pytest worker that runs these tests, not in every one that collects
    this file (the import costs about 2.5 s of CPU)."""

    def __getattr__(self, name):
        if name.startswith("_"):  # pytest looks for markers on every module-level object it collects
            raise AttributeError(name)
        return getattr(pytest.importorskip("torch"), name)


torch = _Torch()
N = 4


def one_closed():
    mask = torch.ones(N, N, dtype=torch.bool)
    mask[0, 1] = False  # True = may read: query 0 may not read key 1
    return mask


def empty_row_1():
    mask = torch.ones(N, N, dtype=torch.bool)
    mask[1] = False  # query 1 may read nothing
    return mask


def row(call, argument):
    return next(c for c in CONVENTIONS if (c.call, c.argument) == (call, argument))


def sdpa_weights(mask=None, n_q=N, is_causal=False):
    """The weights SDPA uses: with V = identity its output is the weight matrix itself."""
    g = torch.Generator().manual_seed(0)
    q, k = torch.randn(1, 1, n_q, 8, generator=g), torch.randn(1, 1, N, 8, generator=g)
    sdpa = torch.nn.functional.scaled_dot_product_attention
    return sdpa(q, k, torch.eye(N)[None, None], attn_mask=mask, is_causal=is_causal)[0, 0]


def mha(**masks):
    torch.manual_seed(0)
    layer = torch.nn.MultiheadAttention(8, 2, batch_first=True)
    x = torch.randn(1, N, 8)
    with torch.no_grad():
        out, weights = layer(x, x, x, **masks)
        out_no_weights, _ = layer(x, x, x, need_weights=False, **masks)
    return out[0], weights[0], out_no_weights[0]


def empty_row_outcome(out, weights, out_no_weights, r):
    if torch.isnan(weights[r]).all() and torch.isnan(out[r]).all() and torch.all(out_no_weights[r] == 0):
        return "nan_unless_no_weights"
    return "unexpected"


# ---- torch.nn.functional.scaled_dot_product_attention


def test_sdpa_bool_true_means_may_read():
    w = sdpa_weights(one_closed())
    assert w[0, 1] == 0 and w[0, 0] > 0
    assert row("torch.nn.functional.scaled_dot_product_attention", "attn_mask (bool)").true_means == "may_read"


def test_sdpa_returns_zeros_for_a_row_with_no_open_key():
    w = sdpa_weights(empty_row_1())
    assert torch.all(w[1] == 0) and not torch.isnan(w).any()
    assert row("torch.nn.functional.scaled_dot_product_attention", "attn_mask (bool)").empty_row == "zeros"


def test_sdpa_is_causal_aligns_top_left_so_one_query_reads_only_key_0():
    w = sdpa_weights(n_q=1, is_causal=True)
    assert w[0].tolist() == [1.0, 0.0, 0.0, 0.0]
    assert causal_mask(1, N).all()  # primer aligns bottom-right: every key
    assert row("torch.nn.functional.scaled_dot_product_attention", "attn_mask (bool)").causal == "top_left"
    assert row("primer.attention", "mask").causal == "bottom_right"


# ---- torch.nn.MultiheadAttention


def test_mha_attn_mask_true_means_blocked_and_an_empty_row_gives_nan():
    _, weights, _ = mha(attn_mask=~one_closed())  # pass True where primer has False
    assert weights[0, 1] == 0 and weights[0, 0] > 0
    assert empty_row_outcome(*mha(attn_mask=~empty_row_1()), 1) == "nan_unless_no_weights"
    c = row("torch.nn.MultiheadAttention", "attn_mask (bool)")
    assert (c.true_means, c.empty_row) == ("blocked", "nan_unless_no_weights")


def test_mha_key_padding_mask_true_means_blocked_and_all_padding_gives_nan():
    pad = torch.tensor([[False, False, True, False]])
    _, weights, _ = mha(key_padding_mask=pad)
    assert torch.all(weights[:, 2] == 0) and torch.all(weights[:, 0] > 0)
    out, weights, out_nw = mha(key_padding_mask=torch.ones(1, N, dtype=torch.bool))
    assert all(empty_row_outcome(out, weights, out_nw, r) == "nan_unless_no_weights" for r in range(N))
    c = row("torch.nn.MultiheadAttention", "key_padding_mask (bool)")
    assert (c.true_means, c.empty_row) == ("blocked", "nan_unless_no_weights")


# ---- Hugging Face: read from masking_utils.py, not executed (transformers is not installed)


def test_hugging_faces_eager_fill_spreads_an_empty_row_evenly():
    # eager_mask: torch.where(mask, 0.0, torch.finfo(dtype).min), then softmax over the keys
    scores = torch.randn(N, N, generator=torch.Generator().manual_seed(1))
    bias = torch.where(empty_row_1(), torch.tensor(0.0), torch.finfo(torch.float32).min)
    w = torch.softmax(scores + bias, dim=-1)
    assert torch.allclose(w[1], torch.full((N,), 1 / N))
    c = row("Hugging Face transformers", "attention_mask (0/1)")
    assert (c.true_means, c.empty_row, c.checked) == ("one_attends", "by_backend", "source")


# ---- primer


def test_primer_true_means_may_read_and_an_empty_row_raises():
    x = np.random.default_rng(0).normal(size=(N, 8))
    _, w = attention(x, x, x, one_closed().numpy())
    assert w[0, 1] == 0 and w[0, 0] > 0
    with pytest.raises(ValueError, match="no open key"):
        attention(x, x, x, empty_row_1().numpy())
    c = row("primer.attention", "mask")
    assert (c.true_means, c.empty_row) == ("may_read", "error")


def test_every_torch_row_is_measured_here():
    measured = {
        ("torch.nn.functional.scaled_dot_product_attention", "attn_mask (bool)"),
        ("torch.nn.MultiheadAttention", "attn_mask (bool)"),
        ("torch.nn.MultiheadAttention", "key_padding_mask (bool)"),
    }
    assert {(c.call, c.argument) for c in CONVENTIONS if c.checked == "torch"} == measured

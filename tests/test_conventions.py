"""Chapter 5's table of library conventions, measured against the installed torch and against primer."""

import numpy as np
import pytest

from primer import attention, causal_mask
from primer.conventions import CONVENTIONS, flash_mask, table_mod, to_additive, to_flash_window, to_hf_4d
from primer.masks import cu_seqlens, document_mask, window_mask


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


def test_sdpa_float_mask_is_added_and_an_all_minus_inf_row_gives_zeros():
    w = sdpa_weights(torch.from_numpy(to_additive(one_closed().numpy(), dtype=np.float32)))
    assert w[0, 1] == 0 and w[0, 0] > 0
    w = sdpa_weights(torch.from_numpy(to_additive(empty_row_1().numpy(), dtype=np.float32)))
    assert torch.all(w[1] == 0) and not torch.isnan(w).any()
    c = row("torch.nn.functional.scaled_dot_product_attention", "attn_mask (float)")
    assert (c.true_means, c.causal, c.empty_row) == ("additive", "top_left", "zeros")


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


def test_hugging_faces_4d_mask_closes_with_the_dtypes_minimum_so_an_empty_row_spreads_evenly():
    scores = np.random.default_rng(1).normal(size=(N, N)).astype(np.float32)
    added = scores + to_hf_4d(empty_row_1().numpy()[None], dtype=np.float32)[0, 0]
    w = np.exp(added - added.max(axis=-1, keepdims=True))
    w /= w.sum(axis=-1, keepdims=True)
    assert np.abs(w[1] - 1 / N).max() < 1e-6 and w[0].min() > 0
    c = row("Hugging Face transformers", "4-D float mask (eager)")
    assert (c.true_means, c.empty_row, c.checked) == ("additive_min", "even", "source")


# ---- FlashAttention: read from flash_attn_interface.py's docstrings, not executed (it needs a GPU)


def test_flash_attentions_varlen_and_window_rows_are_primers_masks_aligned_bottom_right():
    ids = np.array([0, 0, 0, 1, 1, 2])
    cu = cu_seqlens(ids)
    docs = np.repeat(np.arange(cu.size - 1), np.diff(cu))  # each query's document, read back from cu_seqlens
    assert np.array_equal(document_mask(docs), document_mask(ids))
    assert np.array_equal(flash_mask(6, 6, causal=True, window_size=to_flash_window(3)), window_mask(6, 3))
    assert np.array_equal(flash_mask(2, 6, causal=True), causal_mask(2, 6))  # bottom-right
    for argument, means in (
        ("cu_seqlens_q, cu_seqlens_k", "cu_seqlens"),
        ("window_size=(left, right)", "window_bounds"),
    ):
        c = next(c for c in CONVENTIONS if c.argument == argument)
        assert (c.call.startswith("flash_attn."), c.true_means, c.causal, c.empty_row, c.checked) == (
            True,
            means,
            "bottom_right",
            "zeros",
            "source",
        )


# ---- FlexAttention (eager on the CPU: without torch.compile it runs unfused, and warns so)


@pytest.mark.filterwarnings("ignore:flex_attention called without torch.compile")
def test_flex_mask_mod_true_means_may_read_and_an_empty_row_gives_zeros():
    flex = pytest.importorskip("torch.nn.attention.flex_attention")
    g = torch.Generator().manual_seed(0)
    q, k = torch.randn(1, 1, N, 8, generator=g), torch.randn(1, 1, N, 8, generator=g)
    for mask, check in (
        (one_closed(), lambda w: w[0, 1] == 0 and w[0, 0] > 0),
        (empty_row_1(), lambda w: (w[1] == 0).all()),
    ):
        block_mask = flex.create_block_mask(table_mod(mask), None, None, N, N, device="cpu")
        w = flex.flex_attention(q, k, torch.eye(N)[None, None], block_mask=block_mask)[0, 0]
        assert check(w) and not torch.isnan(w).any()
    mod = row("torch.nn.attention.flex_attention.create_block_mask", "mask_mod")
    tiles = row("torch.nn.attention.flex_attention.flex_attention", "block_mask (BlockMask)")
    assert (mod.true_means, mod.empty_row, tiles.true_means, tiles.empty_row) == ("may_read", "zeros", "tiles", "zeros")


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
        ("torch.nn.functional.scaled_dot_product_attention", "attn_mask (float)"),
        ("torch.nn.attention.flex_attention.create_block_mask", "mask_mod"),
        ("torch.nn.attention.flex_attention.flex_attention", "block_mask (BlockMask)"),
    }
    assert {(c.call, c.argument) for c in CONVENTIONS if c.checked == "torch"} == measured

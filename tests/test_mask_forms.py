"""primer's bool mask in each library's spelling and back (numpy only; tests/test_mask_forms_torch.py runs torch)."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from primer.conventions import (
    BLOCK_KINDS,
    block_kinds,
    causal_mod,
    chunked_mod,
    document_mod,
    flash_mask,
    from_additive,
    from_flash_window,
    from_hf_4d,
    from_hf_attention_mask,
    from_key_padding_mask,
    from_mha_attn_mask,
    mask_from_mod,
    prefix_lm_mod,
    table_mod,
    to_additive,
    to_flash_varlen,
    to_flash_window,
    to_hf_4d,
    to_hf_attention_mask,
    to_key_padding_mask,
    to_mha_attn_mask,
    to_sdpa_bool,
    window_mod,
)
from primer.masks import (
    causal_mask,
    chunked_mask,
    cu_seqlens,
    document_mask,
    key_padding_mask,
    prefix_lm_mask,
    tree_mask,
    window_mask,
)

masks = st.integers(1, 12).flatmap(
    lambda n: st.lists(st.booleans(), min_size=n * n, max_size=n * n).map(lambda b: np.array(b).reshape(n, n))
)


@given(masks)
def test_every_form_round_trips(mask):
    assert np.array_equal(to_sdpa_bool(mask), mask)
    assert np.array_equal(from_additive(to_additive(mask)), mask)
    assert np.array_equal(from_mha_attn_mask(to_mha_attn_mask(mask)), mask)
    assert np.array_equal(to_mha_attn_mask(mask), ~mask)  # True means blocked there
    assert np.array_equal(from_hf_4d(to_hf_4d(mask[None])), mask[None])
    for dtype in (np.float16, np.float32, np.float64):
        assert np.array_equal(from_hf_4d(to_hf_4d(mask[None], dtype)), mask[None])


@given(st.lists(st.integers(1, 6), min_size=1, max_size=4), st.sampled_from(["right", "left"]))
def test_padding_forms_round_trip(lengths, side):
    real = key_padding_mask(lengths, 6, side=side)
    assert np.array_equal(from_key_padding_mask(to_key_padding_mask(real)), real)
    assert to_key_padding_mask(real).sum() == real.size - sum(lengths)  # True: padding
    hf = to_hf_attention_mask(real)
    assert hf.dtype.kind == "i" and hf.sum() == sum(lengths)  # 1: a real token
    assert np.array_equal(from_hf_attention_mask(hf), real)


def test_hugging_face_4d_uses_the_dtype_minimum_not_minus_infinity():
    added = to_hf_4d(causal_mask(2)[None], np.float16)
    assert added.shape == (1, 1, 2, 2) and added[0, 0, 0, 1] == np.finfo(np.float16).min == -65504
    assert np.isfinite(added).all()


def test_a_bias_is_not_a_mask():
    with pytest.raises(ValueError, match="bias"):
        from_additive(np.array([[0.0, -1.0], [0.0, 0.0]]))


# ---- FlashAttention, checked against its docstring (flash_attn/flash_attn_interface.py, commit 0053002)


def test_flash_mask_matches_the_docstring_examples():
    assert flash_mask(2, 5, causal=True).astype(int).tolist() == [[1, 1, 1, 1, 0], [1, 1, 1, 1, 1]]
    assert flash_mask(5, 2, causal=True).astype(int).tolist() == [[0, 0], [0, 0], [0, 0], [1, 0], [1, 1]]


@given(st.integers(1, 30), st.integers(0, 10), st.integers(1, 40))
def test_flash_causal_is_primer_bottom_right_and_its_window_is_ours_minus_one(n_q, extra, w):
    n_k = n_q + extra
    assert np.array_equal(flash_mask(n_q, n_k, causal=True), causal_mask(n_q, n_k))
    left_right = to_flash_window(w)
    assert left_right == (w - 1, 0) and from_flash_window(left_right) == w
    assert np.array_equal(flash_mask(n_k, n_k, causal=True, window_size=left_right), window_mask(n_k, w))


@given(st.lists(st.integers(1, 7), min_size=1, max_size=5))
def test_flash_varlen_arguments(doc_lengths):
    ids = np.repeat(np.arange(len(doc_lengths)), doc_lengths)
    cu, max_seqlen = to_flash_varlen(ids)
    assert cu.dtype == np.int32 and cu.tolist() == cu_seqlens(ids).tolist() and max_seqlen == max(doc_lengths)


# ---- FlexAttention's mask_mod, evaluated on numpy index grids (torch runs them in tests/test_mask_forms_torch.py)


@given(st.integers(1, 20), st.integers(1, 8), st.integers(0, 4))
def test_mask_mods_give_primers_masks(n, size, sinks):
    assert np.array_equal(mask_from_mod(causal_mod, n, n), causal_mask(n))
    assert np.array_equal(mask_from_mod(window_mod(size, sinks=sinks), n, n), window_mask(n, size, sinks=sinks))
    assert np.array_equal(mask_from_mod(chunked_mod(size), n, n), chunked_mask(n, size))
    p = min(size, n)
    assert np.array_equal(mask_from_mod(prefix_lm_mod(p), n, n), prefix_lm_mask(n, p))
    ids = np.arange(n) // size
    assert np.array_equal(mask_from_mod(document_mod(ids), n, n), document_mask(ids))
    assert np.array_equal(mask_from_mod(document_mod(ids, causal=False), n, n), document_mask(ids, causal=False))
    tree = tree_mask([-1] + [i // 2 for i in range(n - 1)])
    assert np.array_equal(mask_from_mod(table_mod(tree), n, n), tree)


def test_block_kinds_of_a_causal_mask():
    kinds = block_kinds(causal_mask(300), 128)
    assert [[BLOCK_KINDS[k] for k in row] for row in kinds.tolist()] == [
        ["partial", "empty", "empty"],
        ["full", "partial", "empty"],
        ["partial", "partial", "partial"],  # the ragged last rows: padding counts as closed
    ]
    assert block_kinds(causal_mask(256), 128).tolist() == [[1, 0], [2, 1]]


@given(st.lists(st.integers(1, 6), min_size=1, max_size=4), st.sampled_from(["right", "left"]), st.booleans())
def test_hugging_faces_padded_mask_is_the_plain_and(lengths, side, causal):
    # masking_utils: and_masks(causal_mask_function, padding_mask_function(attention_mask)), the 2-D mask read per key
    from primer.conventions import hf_padded_mask
    from primer.masks import batch_mask, full_mask

    attention_mask = to_hf_attention_mask(key_padding_mask(lengths, 6, side=side))
    base = causal_mask(6) if causal else full_mask(6)
    expected = batch_mask(lengths, 6, causal=causal, side=side, padded_queries="and")
    assert np.array_equal(hf_padded_mask(attention_mask, base), expected)


def test_ignored_labels_weigh_nothing_in_the_loss_and_change_no_mask():
    from primer.backprop import cross_entropy
    from primer.conventions import weights_from_labels

    rng = np.random.default_rng(0)
    logits = rng.normal(size=(5, 7))
    labels = np.array([-100, -100, 3, 1, 6])  # a prompt of two tokens, no loss on it
    targets, weights = weights_from_labels(labels)
    assert targets.tolist() == [0, 0, 3, 1, 6] and weights.tolist() == [0, 0, 1, 1, 1]
    loss = cross_entropy(logits, targets, weights)
    assert abs(loss - cross_entropy(logits[2:], labels[2:])) < 1e-12  # the mean over the three real labels
    moved = logits.copy()
    moved[:2] += rng.normal(size=(2, 7))  # what the prompt's rows predict does not count
    assert abs(cross_entropy(moved, targets, weights) - loss) < 1e-12

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from primer import attention
from primer.conventions import packed_ids_from_positions
from primer.masks import cu_seqlens, document_mask
from primer.packing import document_positions, varlen_attention
from primer.rounding import is_rounding

lengths = st.lists(st.integers(1, 7), min_size=1, max_size=5)


def packed(doc_lengths):
    return np.repeat(np.arange(len(doc_lengths)), doc_lengths)


def qkv(seed, n, d=4):
    rng = np.random.default_rng(seed)
    return rng.normal(size=(n, d)), rng.normal(size=(n, d)), rng.normal(size=(n, 3))


@given(lengths, st.integers(0, 2**16), st.booleans())
def test_document_by_document_equals_one_pass_under_the_document_mask(doc_lengths, seed, causal):
    ids = packed(doc_lengths)
    q, k, v = qkv(seed, ids.size)
    one_pass = attention(q, k, v, document_mask(ids, causal=causal))[0]
    assert is_rounding(varlen_attention(q, k, v, cu_seqlens(ids), causal=causal) - one_pass)


def test_the_plain_causal_mask_leaks_across_documents_and_the_document_mask_does_not():
    ids = packed([3, 4])
    q, k, v = qkv(0, ids.size)
    changed = v.copy()
    changed[:3] += 1.0  # document 0's values change
    for mask, moves in ((document_mask(ids), False), (np.tri(7, dtype=bool), True)):
        delta = np.abs(attention(q, k, changed, mask)[0][3:] - attention(q, k, v, mask)[0][3:]).max()
        assert (delta > 1e-3) == moves


@given(lengths)
def test_positions_restart_and_hugging_face_reads_the_documents_back_from_them(doc_lengths):
    ids = packed(doc_lengths)
    pos = document_positions(ids)
    assert pos.tolist() == [i for n in doc_lengths for i in range(n)]
    # transformers' find_packed_sequence_indices: a new document where positions do not step by 1; a
    # one-token document followed by another looks like a restart at 0 too, so this round-trips
    assert np.array_equal(packed_ids_from_positions(pos), ids)


def test_positions_that_run_on_hide_the_documents_from_that_rule():
    assert packed_ids_from_positions(np.arange(6)).tolist() == [0] * 6


def test_on_the_model_a_change_in_document_0_moves_document_1_only_under_the_causal_mask():
    from primer.config import Config
    from primer.packing import document_leak
    from primer.transformer import init_stack

    cfg = Config(d_model=16, n_heads=2, n_layers=2, max_len=16)
    ids = packed([4, 5])
    moved = document_leak(np.arange(9) % cfg.vocab_size, ids, 1, 20, init_stack(0, cfg), cfg)
    assert moved["causal"][4:].min() > 1e-3  # every token of document 1 moves
    assert is_rounding(moved["document"][4:])  # document 1 never reads document 0
    assert moved["document"][1] > 1e-3 and is_rounding(moved["document"][0])  # inside document 0: causal as ever

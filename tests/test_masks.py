import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from primer import additive_mask, causal_mask, full_mask, window_mask
from primer.masks import chunked_mask, cu_seqlens, document_mask, prefix_lm_mask, tree_mask

sizes = st.integers(1, 40)
# a packed row: document lengths >= 1, numbered 0, 1, 2, ... in order
lengths = st.lists(st.integers(1, 8), min_size=1, max_size=6)


def packed(doc_lengths):  # -> [n] doc ids
    return np.repeat(np.arange(len(doc_lengths)), doc_lengths)


@st.composite
def trees(draw, max_nodes=20):  # -> parents, node 0 a root, each parent before its child
    m = draw(st.integers(1, max_nodes))
    return [-1] + [draw(st.integers(-1, i - 1)) for i in range(1, m)]


def ancestors(parents, i):  # -> set of i's ancestors, walked one parent at a time
    found = set()
    while parents[i] != -1:
        i = parents[i]
        found.add(i)
    return found


def test_causal_mask_is_lower_triangular():
    assert causal_mask(3).tolist() == [[True, False, False], [True, True, False], [True, True, True]]


@given(sizes)
def test_single_query_over_a_prefix_reads_everything(n):
    assert causal_mask(1, n).all()


@given(sizes, sizes)
def test_rectangular_causal_mask_aligns_bottom_right(n_q, extra):
    n_k = n_q + extra
    m = causal_mask(n_q, n_k)
    assert m.shape == (n_q, n_k)
    assert np.array_equal(m, causal_mask(n_k)[-n_q:])


@given(sizes, sizes)
def test_full_mask_is_all_open(n_q, n_k):
    m = full_mask(n_q, n_k)
    assert m.shape == (n_q, n_k) and m.dtype == bool and m.all()


@given(sizes, st.integers(0, 50))
def test_window_at_least_n_equals_causal(n, extra):
    assert np.array_equal(window_mask(n, n + extra), causal_mask(n))


@given(sizes, st.integers(1, 50))
def test_window_keeps_diagonal_and_band(n, w):
    m = window_mask(n, w)
    assert m.diagonal().all()
    i, j = np.indices((n, n))
    assert np.array_equal(m, (j <= i) & (i - j < w))


@given(sizes, st.integers(1, 50))
def test_every_row_reads_the_window_most_recent_keys_including_itself(n, w):
    m = window_mask(n, w)
    assert m.sum(axis=1).tolist() == [min(i + 1, w) for i in range(n)]
    assert m[-1].sum() == min(n, w)


def test_window_one_is_the_diagonal():
    assert np.array_equal(window_mask(4, 1), np.eye(4, dtype=bool))


def test_window_matches_hugging_faces_sliding_window_3_example():
    # The 5 x 5 example in the docstring of transformers' masking_utils.sdpa_mask, sliding_window=3
    # (source: huggingface/transformers, src/transformers/masking_utils.py, commit 00c4411).
    published = ["■⬚⬚⬚⬚", "■■⬚⬚⬚", "■■■⬚⬚", "⬚■■■⬚", "⬚⬚■■■"]
    assert window_mask(5, 3).tolist() == [[c == "■" for c in row] for row in published]


def test_additive_mask_values():
    add = additive_mask(causal_mask(2))
    assert add.tolist() == [[0.0, -np.inf], [0.0, 0.0]]
    assert additive_mask(causal_mask(2), fill=-1e9)[0, 1] == -1e9


# ---- packed documents


@given(sizes)
def test_one_document_is_the_causal_mask(n):
    assert np.array_equal(document_mask([0] * n), causal_mask(n))
    assert np.array_equal(document_mask([3] * n, causal=False), full_mask(n))


@given(lengths)
def test_document_mask_is_same_document_and_causal(doc_lengths):
    ids = packed(doc_lengths)
    i, j = np.indices((ids.size, ids.size))
    assert np.array_equal(document_mask(ids), (ids[i] == ids[j]) & (j <= i))
    assert np.array_equal(document_mask(ids, causal=False), ids[i] == ids[j])


@given(lengths)
def test_document_mask_is_block_diagonal_causal(doc_lengths):
    ids = packed(doc_lengths)
    blocks = [causal_mask(n) for n in doc_lengths]
    expected = np.zeros((ids.size, ids.size), bool)
    start = 0
    for b in blocks:
        expected[start : start + b.shape[0], start : start + b.shape[0]] = b
        start += b.shape[0]
    assert np.array_equal(document_mask(ids), expected)


def test_document_mask_takes_any_labels_even_when_a_document_comes_back():
    # not a packed row (cu_seqlens refuses it), but the mask's rule still holds
    assert document_mask([1, 0, 1], causal=False).tolist() == [[True, False, True], [False, True, False]] + [
        [True, False, True]
    ]


@given(lengths)
def test_cu_seqlens_are_the_cumulative_lengths_and_round_trip(doc_lengths):
    ids = packed(doc_lengths)
    cu = cu_seqlens(ids)
    assert cu.tolist() == [0, *np.cumsum(doc_lengths).tolist()]
    assert np.array_equal(packed(np.diff(cu)), ids)  # back to the doc ids
    rebuilt = np.zeros((ids.size, ids.size), bool)
    for start, end in zip(cu[:-1], cu[1:]):
        rebuilt[start:end, start:end] = causal_mask(end - start)
    assert np.array_equal(rebuilt, document_mask(ids))  # and to the block-diagonal mask


def test_cu_seqlens_of_a_small_row():
    assert cu_seqlens([0, 0, 0, 1, 2, 2]).tolist() == [0, 3, 4, 6]


# ---- prefix-LM


@given(sizes)
def test_prefix_0_is_causal_and_prefix_n_is_full(n):
    assert np.array_equal(prefix_lm_mask(n, 0), causal_mask(n))
    assert np.array_equal(prefix_lm_mask(n, n), full_mask(n))


@given(sizes, st.data())
def test_prefix_lm_reads_the_prefix_both_ways_and_the_rest_causally(n, data):
    p = data.draw(st.integers(0, n))
    m = prefix_lm_mask(n, p)
    i, j = np.indices((n, n))
    assert np.array_equal(m, (j < p) | (j <= i))
    assert m[:p, :p].all() and not m[:p, p:].any()  # the prefix never reads the suffix
    if p < n:
        assert np.array_equal(m[p:, p:], causal_mask(n - p))


# ---- chunked attention


@given(sizes, st.integers(1, 50))
def test_chunked_mask_rule(n, c):
    i, j = np.indices((n, n))
    assert np.array_equal(chunked_mask(n, c), (j <= i) & (i // c == j // c))


@given(sizes, st.integers(0, 50))
def test_chunk_at_least_n_is_causal_and_chunk_1_the_diagonal(n, extra):
    assert np.array_equal(chunked_mask(n, n + extra), causal_mask(n))
    assert np.array_equal(chunked_mask(n, 1), np.eye(n, dtype=bool))


@given(sizes, st.integers(1, 50))
def test_chunked_mask_is_a_document_mask_of_equal_chunks(n, c):
    assert np.array_equal(chunked_mask(n, c), document_mask(np.arange(n) // c))


@given(sizes, st.integers(1, 50))
def test_a_chunk_never_reads_more_than_the_window_of_the_same_size(n, c):
    assert not (chunked_mask(n, c) & ~window_mask(n, c)).any()


# ---- window with sinks


@given(sizes, st.integers(1, 50))
def test_sinks_0_is_the_plain_window(n, w):
    assert np.array_equal(window_mask(n, w, sinks=0), window_mask(n, w))


@given(sizes, st.integers(1, 50), st.integers(0, 50))
def test_window_with_sinks_rule_and_contains_the_plain_window(n, w, s):
    m = window_mask(n, w, sinks=s)
    i, j = np.indices((n, n))
    assert np.array_equal(m, (j <= i) & ((i - j < w) | (j < s)))
    assert not (window_mask(n, w) & ~m).any()  # the plain window is inside
    assert not (m & ~causal_mask(n)).any()  # and nothing past the diagonal
    assert m.sum(axis=1).tolist() == [min(i + 1, w + min(s, max(i + 1 - w, 0))) for i in range(n)]


def test_window_with_sinks_small_example():
    # StreamingLLM's layout: the first key stays, then the 2 most recent
    assert window_mask(5, 2, sinks=1).astype(int).tolist() == [
        [1, 0, 0, 0, 0],
        [1, 1, 0, 0, 0],
        [1, 1, 1, 0, 0],
        [1, 0, 1, 1, 0],
        [1, 0, 0, 1, 1],
    ]


# ---- tree masks


@given(sizes)
def test_a_chain_is_the_causal_mask(n):
    assert np.array_equal(tree_mask([-1] + list(range(n - 1))), causal_mask(n))


@given(sizes)
def test_all_roots_is_the_diagonal(n):
    assert np.array_equal(tree_mask([-1] * n), np.eye(n, dtype=bool))


@given(trees())
def test_tree_mask_reads_itself_and_its_ancestors_only(parents):
    m = tree_mask(parents)
    for i in range(len(parents)):
        assert set(np.flatnonzero(m[i]).tolist()) == ancestors(parents, i) | {i}
    assert not (m & ~causal_mask(len(parents))).any()  # a parent comes first, so the tree is causal


def test_tree_mask_small_example():
    # root 0; children 1 and 2; 3 under 1
    assert tree_mask([-1, 0, 0, 1]).astype(int).tolist() == [[1, 0, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0], [1, 1, 0, 1]]

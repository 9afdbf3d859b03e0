import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from primer import attention, causal_mask
from primer.paged_cache import PagedCache, wasted_slots
from primer.rounding import is_rounding


@given(st.lists(st.integers(1, 20), min_size=1, max_size=4), st.integers(1, 6), st.integers(0, 2**16))
def test_gathering_through_the_block_table_gives_the_contiguous_cache(lengths, page_size, seed):
    rng = np.random.default_rng(seed)
    pages = sum(-(-n // page_size) for n in lengths)
    cache = PagedCache(pages, page_size, 4, 3)
    rows = {s: (rng.normal(size=(n, 4)), rng.normal(size=(n, 3))) for s, n in enumerate(lengths)}
    for t in range(max(lengths)):  # the sequences grow in turn, so their pages interleave in the pool
        for s, (k, v) in rows.items():
            if t < len(k):
                cache.append(s, k[t], v[t])
    for s, (k, v) in rows.items():
        got_k, got_v = cache.gather(s)
        assert np.array_equal(got_k, k) and np.array_equal(got_v, v)  # a copy of the same numbers: exact
        q = rng.normal(size=(len(k), 4))
        paged = attention(q, got_k, got_v, causal_mask(len(k)))[0]
        assert is_rounding(paged - attention(q, k, v, causal_mask(len(k)))[0])
    assert not cache.free


def test_released_pages_are_reused():
    cache = PagedCache(2, 2, 1, 1)
    for t in range(3):
        cache.append("a", [t], [t])
    assert cache.block_tables["a"] == [0, 1]
    cache.release("a")
    cache.append("b", [7.0], [7.0])
    assert cache.block_tables["b"] == [0] and cache.gather("b")[0].tolist() == [[7.0]]


@given(st.lists(st.integers(1, 100), min_size=1, max_size=8), st.integers(1, 16))
def test_paged_waste_is_under_a_page_per_sequence(lengths, page_size):
    waste = wasted_slots(lengths, 100, page_size)
    assert 0 <= waste["paged"] < page_size * len(lengths)
    assert waste["contiguous"] == sum(100 - n for n in lengths)


def test_wasted_slots_small_example():
    assert wasted_slots([3, 10], 16, 4) == {"contiguous": 13 + 6, "paged": 1 + 2}

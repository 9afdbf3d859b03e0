"""A paged KV cache: keys and values live in fixed-size pages of one pool; a block table maps positions to pages.

The mask does not change, only where the keys are stored: gathering a sequence's pages in its block-table
order gives back the contiguous cache, row for row.
"""

import numpy as np

from primer._checks import float_array, positive_int


class PagedCache:
    """A pool of n_pages pages of page_size rows each, for keys [d_k] and values [d_v], shared by many sequences."""

    def __init__(self, n_pages, page_size, d_k, d_v):
        self.page_size = positive_int("page_size", page_size)
        n_pages = positive_int("n_pages", n_pages)
        self.k = np.zeros((n_pages, self.page_size, positive_int("d_k", d_k)))
        self.v = np.zeros((n_pages, self.page_size, positive_int("d_v", d_v)))
        self.free = list(range(n_pages))  # pages not yet handed out, first free first
        self.block_tables = {}  # sequence -> list of page ids, in position order
        self.lengths = {}  # sequence -> positions stored

    def append(self, seq, k, v):  # [d_k], [d_v]
        """Store one position's key and value for sequence seq, taking a new page when its last one is full."""
        k, v = float_array("k", k), float_array("v", v)
        if k.shape != self.k.shape[2:] or v.shape != self.v.shape[2:]:
            raise ValueError(f"k and v must be one row each, [{self.k.shape[2]}] and [{self.v.shape[2]}]")
        t = self.lengths.get(seq, 0)
        table = self.block_tables.setdefault(seq, [])
        if t % self.page_size == 0:
            if not self.free:
                raise ValueError("the pool has no free page left: free a sequence or make more pages")
            table.append(self.free.pop(0))
        page, row = table[t // self.page_size], t % self.page_size  # position t lives here
        self.k[page, row], self.v[page, row] = k, v
        self.lengths[seq] = t + 1

    def gather(self, seq):  # -> ([t, d_k], [t, d_v])
        """Return sequence seq's keys and values in position order, read through its block table."""
        if seq not in self.lengths:
            raise ValueError(f"seq must be a sequence stored in the cache, got {seq!r}")
        t, table = self.lengths[seq], self.block_tables[seq]
        return self.k[table].reshape(-1, self.k.shape[2])[:t], self.v[table].reshape(-1, self.v.shape[2])[:t]

    def release(self, seq):
        """Give sequence seq's pages back to the pool."""
        if seq not in self.lengths:
            raise ValueError(f"seq must be a sequence stored in the cache, got {seq!r}")
        self.free.extend(self.block_tables.pop(seq))
        del self.lengths[seq]


def wasted_slots(lengths, max_len, page_size):  # [batch] -> {"contiguous": int, "paged": int}
    """Return the K/V rows reserved but unused: a contiguous cache reserves max_len per sequence, pages round up.

    Paged, each sequence wastes less than one page.
    """
    raw = np.asarray(lengths)
    if raw.ndim != 1 or raw.size == 0 or raw.dtype.kind not in "iu" or (raw < 1).any():
        raise ValueError(f"lengths must be a non-empty 1-D array of integers >= 1, got {raw.tolist()}")
    max_len, page_size = positive_int("max_len", max_len), positive_int("page_size", page_size)
    if raw.max() > max_len:
        raise ValueError(f"lengths must be <= max_len={max_len}, got {raw.max()}")
    pages = -(-raw // page_size)
    return {"contiguous": int((max_len - raw).sum()), "paged": int((pages * page_size - raw).sum())}

import numpy as np

from primer.attention import attention
from primer.figures import serving as figures
from primer.inputs.serving import N_PAGES, PAGE_SIZE, PAGED_SEED, SEQ_LENGTHS
from primer.paged_cache import PagedCache

rng = np.random.default_rng(PAGED_SEED)
d = 4
keys = [rng.standard_normal((n, d)) for n in SEQ_LENGTHS]  # each sequence's contiguous cache: [n, d]
values = [rng.standard_normal((n, d)) for n in SEQ_LENGTHS]
cache = PagedCache(N_PAGES, PAGE_SIZE, d, d)
for t in range(max(SEQ_LENGTHS)):  # the sequences take turns, so their pages interleave in the pool
    for s, n in enumerate(SEQ_LENGTHS):
        if t < n:
            cache.append(s, keys[s][t], values[s][t])
rows = []
for s, n in enumerate(SEQ_LENGTHS):
    k, v = cache.gather(s)  # read through the block table
    q = rng.standard_normal((1, d))  # the next token's query reads every stored position: an all-open row
    out_paged = attention(q, k, v, np.ones((1, n), dtype=bool))[0]
    out_contiguous = attention(q, keys[s], values[s], np.ones((1, n), dtype=bool))[0]
    same_rows = np.array_equal(k, keys[s]) and np.array_equal(v, values[s])  # copies: exact
    rows.append((s, n, cache.block_tables[s], same_rows, np.array_equal(out_paged, out_contiguous)))
print(figures.paged_table(rows))

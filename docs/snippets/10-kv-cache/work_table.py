from primer.counts import speedup, total_scores
from primer.figures import kv_cache as figures

rows = [
    (
        n,
        total_scores(n, cached=False),
        total_scores(n, cached=True),  # full n x n score tables vs one row
        speedup(n, "scores"),  # exact Fractions: (2N+1)/3,
        speedup(n, "causal_scores"),  # (N+2)/3 if the masked upper triangle is never computed,
        speedup(n, "rows"),
    )  # (N+1)/2 for the projections and the feed-forward layer
    for n in (1, 10, 100, 1000, 10000)
]
print(figures.work_table(rows))

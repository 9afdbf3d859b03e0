from primer.counts import speedup, total_scores
from primer.figures import kv_cache as figures

rows = [(n, total_scores(n, cached=False), total_scores(n, cached=True), speedup(n))  # exact ratio, a Fraction
        for n in (1, 10, 100, 1000, 10000)]
print(figures.work_table(rows))

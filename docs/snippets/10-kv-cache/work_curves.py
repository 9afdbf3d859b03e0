import numpy as np

from primer.counts import speedup, total_scores
from primer.figures import kv_cache as figures
from primer.figures import to_html

ns = np.unique(np.logspace(0, 4, 121).astype(int))  # N = 1 .. 10,000
without = [total_scores(n, cached=False) for n in ns]  # sum of n^2: each step rescores its whole prefix
cached = [total_scores(n, cached=True) for n in ns]  # sum of n: each step scores one new row
marks = [
    (n, total_scores(n, cached=False), total_scores(n, cached=True), float(speedup(n)))
    for n in (10, 30, 100, 300, 1000, 3000, 10000)
]
fig = figures.work_curves(ns, without, cached, marks)
print(to_html(fig, div_id="fig-work-curves"))

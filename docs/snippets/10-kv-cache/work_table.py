from primer.decode_cost import speedup, total_scores
from primer.figures import generation

rows = [(n, total_scores(n, cached=False), total_scores(n, cached=True), speedup(n))  # exact ratio, a Fraction
        for n in (1, 10, 100, 1000, 10000)]
print(generation.work_table(rows))

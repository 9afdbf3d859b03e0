import numpy as np

from primer.counts import cost_row
from primer.figures import attention as figures
from primer.figures import to_html
from primer.inputs.attention import COST_D

grid = np.unique(np.geomspace(10, 10_000, 61).round().astype(int))
stops = sorted({10, 30, 100, 200, 300, 512, 700, 1000, 2000, 4096, 10_000})  # slider positions
fig = figures.cost_chart(grid, [cost_row(int(n), COST_D) for n in stops], COST_D)
print(to_html(fig, div_id="fig-cost-chart"))

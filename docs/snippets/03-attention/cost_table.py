from primer.counts import cost_row
from primer.figures import attention as figures
from primer.inputs.attention import COST_D, COST_NS

rows = [cost_row(n, COST_D) for n in COST_NS]  # d = 512, the original Transformer's width
print(figures.cost_table(rows))

from primer.layer_cost import COST_D, COST_NS, cost_row
from primer.figures import attention_general as fig3

rows = [cost_row(n, COST_D) for n in COST_NS]   # d = 512, the original Transformer's width
print(fig3.cost_table(rows))

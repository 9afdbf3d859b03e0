from primer.figures import heads as fig4
from primer.heads import TRANSFORMER_BASE

print(fig4.config_table(TRANSFORMER_BASE))   # d_k is a property: d_model // n_heads

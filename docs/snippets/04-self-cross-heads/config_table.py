from primer.figures import self_cross_heads as figures
from primer.published import model
from primer.pages.self_cross_heads import CONFIG_MODEL

print(figures.config_table(model(CONFIG_MODEL)))   # d_head is a property: d_model // n_heads

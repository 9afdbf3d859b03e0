from primer.figures import self_cross_heads as figures
from primer.inputs.self_cross_heads import CONFIG_MODEL
from primer.published import model

print(figures.config_table(model(CONFIG_MODEL)))  # d_head is a property: d_model // n_heads

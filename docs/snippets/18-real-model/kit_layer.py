from primer.experiments import real_model
from primer.figures import real_model as figures
from primer.inputs.real_model import KIT_LAYER, KIT_ROWS

found = real_model.kit_on_layer(KIT_LAYER, KIT_ROWS)  # check_causal and check_cache from primer.mask_checks
print(figures.kit_table(found))

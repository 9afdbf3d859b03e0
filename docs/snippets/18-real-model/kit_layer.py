from primer.figures import real_model as figures
from primer.inputs.real_model import KIT_LAYER, KIT_ROWS
from primer.pretrained import measure

found = measure.kit_on_layer(KIT_LAYER, KIT_ROWS)  # check_causal and check_cache from primer.mask_checks
print(figures.kit_table(found))

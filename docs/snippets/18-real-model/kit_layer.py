from primer.figures import real_model as figures
from primer.inputs.real_model import KIT_DOC_IDS, KIT_LAYER, KIT_ROWS, KIT_SINKS, KIT_WINDOW
from primer.pretrained import measure

found = measure.kit_on_layer(KIT_LAYER, KIT_ROWS)  # check_causal and check_cache from primer.mask_checks
found |= measure.kit_masks_on_layer(KIT_LAYER, KIT_WINDOW, KIT_SINKS, KIT_DOC_IDS)  # check_mask, the chapter's masks
print(figures.kit_table(found))

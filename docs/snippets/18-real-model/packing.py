from primer.figures import real_model as figures
from primer.inputs.real_model import DOC_A, DOC_B
from primer.pretrained import measure

result = measure.packing(DOC_A, DOC_B)  # document_mask(doc_ids) from primer.masks on the packed row
print(figures.packing_table(result, measure.GAP_BOUNDS))

import numpy as np

from primer import conventions as c
from primer.figures import packing as figures
from primer.inputs.packing import FORMS_DOC_IDS, FORMS_QUERY
from primer.masks import document_mask
from primer.packing import document_positions

ids = np.array(FORMS_DOC_IDS)
mask, n = document_mask(ids), ids.size  # primer's: True where query i may read key j
cu, _ = c.to_flash_varlen(ids)  # (cu_seqlens as int32, max_seqlen)
rebuilt = np.repeat(np.arange(cu.size - 1), np.diff(cu))  # the documents, from cu_seqlens alone
positions = document_positions(ids)
forms = [  # (form, its value in query FORMS_QUERY's row, or the whole argument, back in primer's form)
    ("primer", mask[FORMS_QUERY], mask),
    ("sdpa_bool", c.to_sdpa_bool(mask)[FORMS_QUERY], c.to_sdpa_bool(mask)),
    ("sdpa_float", c.to_additive(mask)[FORMS_QUERY], c.from_additive(c.to_additive(mask))),
    ("mha", c.to_mha_attn_mask(mask)[FORMS_QUERY], c.from_mha_attn_mask(c.to_mha_attn_mask(mask))),
    ("hf_4d", c.to_hf_4d(mask[None])[0, 0, FORMS_QUERY], c.from_hf_4d(c.to_hf_4d(mask[None]))[0]),
    ("hf_positions", positions, document_mask(c.packed_ids_from_positions(positions))),
    ("flash_varlen", cu, document_mask(rebuilt)),
    ("flex", c.mask_from_mod(c.document_mod(ids), n, n)[FORMS_QUERY], c.mask_from_mod(c.document_mod(ids), n, n)),
]
print(figures.forms_table(ids, FORMS_QUERY, [(name, value, bool((back == mask).all())) for name, value, back in forms]))

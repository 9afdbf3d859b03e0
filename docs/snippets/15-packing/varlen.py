import numpy as np

from primer.attention import attention
from primer.experiments.packed_training import row_doc_ids
from primer.experiments.trained_decoder import trained_decoder
from primer.figures.tables import fmt_change
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.packing import D_HEAD, HELD_OUT_ROW, VARLEN_SEED
from primer.masks import cu_seqlens, document_mask
from primer.packing import varlen_attention

data, _, _ = trained_decoder(**EXPERIMENT)
doc_ids = row_doc_ids(data.heldout_tokens[HELD_OUT_ROW][None], data.vocab.index("."))[0]
cu = cu_seqlens(doc_ids)
rebuilt = np.repeat(np.arange(cu.size - 1), np.diff(cu))  # the document ids, read back from cu_seqlens alone
q, k, v = np.random.default_rng(VARLEN_SEED).standard_normal((3, doc_ids.size, D_HEAD))
one_pass = attention(q, k, v, document_mask(doc_ids))[0]  # the whole row at once, under the document mask
by_document = varlen_attention(q, k, v, cu)  # document by document, causal inside each: what a varlen kernel does
print("doc_ids:   ", doc_ids.tolist())
print("cu_seqlens:", cu.tolist())
print(
    "document_mask from cu_seqlens == document_mask(doc_ids):",
    bool((document_mask(rebuilt) == document_mask(doc_ids)).all()),
)
print("largest |one pass - document by document|:", fmt_change(np.abs(one_pass - by_document).max()))

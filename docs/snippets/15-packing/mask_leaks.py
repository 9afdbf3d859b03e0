from primer.experiments.packed_training import row_doc_ids
from primer.experiments.trained_decoder import trained_decoder
from primer.figures import mask_kit as figures
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.packing import HELD_OUT_ROW, KIT_D, KIT_SEED, PREFIX
from primer.leak import LeakProbes
from primer.masks import causal_mask, document_mask, prefix_lm_mask

data, cfg, run = trained_decoder(**EXPERIMENT)  # chapter 7's decoder, its first held-out row: three documents
tokens = data.heldout_tokens[HELD_OUT_ROW]
n = tokens.size
probe = LeakProbes(run.params, cfg, d=KIT_D, seed=KIT_SEED)  # the decoder under a mask, its layers' reach, one head

documents = document_mask(row_doc_ids(tokens[None], data.vocab.index("."))[0])
prefix = prefix_lm_mask(n, PREFIX)
cases = [  # (case, the mask the model should follow, the mask it is run under)
    ("document", documents, documents),
    ("document_as_causal", documents, causal_mask(n)),
    ("prefix", prefix, prefix),
    ("prefix_as_causal", prefix, causal_mask(n)),
]
rows = [probe.row(case, tokens, meant, used) for case, meant, used in cases]
print(figures.mask_leak_table(rows))

from primer.experiments.packed_training import row_doc_ids
from primer.experiments.trained_decoder import trained_decoder
from primer.figures import packing as figures
from primer.figures import to_html
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.packing import CHANGED_POSITION, CHANGED_WORD, HELD_OUT_ROW
from primer.packing import document_leak

# chapter 7's trained decoder on a held-out row of three documents; "fox" in the first becomes "cat"
data, cfg, run = trained_decoder(**EXPERIMENT)
tokens = data.heldout_tokens[HELD_OUT_ROW]
doc_ids = row_doc_ids(tokens[None], data.vocab.index("."))[0]
moved = document_leak(tokens, doc_ids, CHANGED_POSITION, data.vocab.index(CHANGED_WORD), run.params, cfg)
words = [data.vocab[t] for t in tokens]
fig = figures.document_leak(words, doc_ids, CHANGED_POSITION, CHANGED_WORD, moved)
print(to_html(fig, div_id="fig-document-leak"))

import numpy as np

from primer.conventions import packed_ids_from_positions
from primer.experiments.packed_training import row_doc_ids
from primer.experiments.trained_decoder import trained_decoder
from primer.inputs.decoder import EXPERIMENT
from primer.inputs.packing import HELD_OUT_ROW
from primer.packing import document_positions

data, _, _ = trained_decoder(**EXPERIMENT)
doc_ids = row_doc_ids(data.heldout_tokens[HELD_OUT_ROW][None], data.vocab.index("."))[0]
restarting = document_positions(doc_ids)  # 0, 1, 2, ... again at each document's first token
running = np.arange(doc_ids.size)  # one count over the whole row
print("doc_ids:              ", doc_ids.tolist())
print("positions, restarting:", restarting.tolist())
print("documents read back:  ", packed_ids_from_positions(restarting).tolist())
print("positions, running:   ", running.tolist())
print("documents read back:  ", packed_ids_from_positions(running).tolist())

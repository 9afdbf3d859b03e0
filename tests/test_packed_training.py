"""Training on packed rows (Rows.doc_ids): the rows read under the document mask, and rows without ids as before."""

import numpy as np

from primer.config import Config
from primer.experiments.packed_training import first_tokens, row_doc_ids
from primer.masks import causal_mask, document_mask
from primer.optim import tree_map
from primer.rounding import is_rounding
from primer.training import Rows, train
from primer.transformer import init_stack

CFG = Config(vocab_size=7, d_model=8, n_heads=2, d_ff=16, n_layers=1, max_len=16)
TOKENS = np.random.default_rng(0).integers(1, 7, size=(3, 9))
TOKENS[:, 0] = 0  # every row starts at the boundary token, 0
TOKENS[0, 4] = TOKENS[1, 3] = TOKENS[1, 6] = TOKENS[2, 8] = 0  # and more documents start inside the rows
TARGETS = np.roll(TOKENS, -1, axis=1)


def run(task, self_mask, steps=3):
    return train(init_stack(1, CFG), CFG, task, self_mask=self_mask, steps=steps, lr=0.01, seed=2, batch_size=2)


def flat(params):
    out = []
    tree_map(lambda x: out.append(np.ravel(x)), params)
    return np.concatenate(out)


def test_one_document_per_row_trains_as_rows_without_ids():
    plain = run([Rows(TOKENS, TARGETS)], causal_mask)
    one_doc = run([Rows(TOKENS, TARGETS, doc_ids=np.zeros(TOKENS.shape, int))], causal_mask)
    assert is_rounding(plain.losses - one_doc.losses)
    assert is_rounding(flat(plain.params) - flat(one_doc.params))


def test_a_row_with_doc_ids_trains_as_that_row_under_its_document_mask():
    for r in range(len(TOKENS)):
        ids = row_doc_ids(TOKENS[r : r + 1], 0)
        packed = train(
            init_stack(1, CFG),
            CFG,
            [Rows(TOKENS[r : r + 1], TARGETS[r : r + 1], doc_ids=ids)],
            self_mask=causal_mask,
            steps=2,
            lr=0.01,
        )
        masked = train(
            init_stack(1, CFG),
            CFG,
            [Rows(TOKENS[r : r + 1], TARGETS[r : r + 1])],
            self_mask=lambda n, ids=ids: document_mask(ids[0]),
            steps=2,
            lr=0.01,
        )
        assert is_rounding(packed.losses - masked.losses)
        assert is_rounding(flat(packed.params) - flat(masked.params))


def test_doc_ids_change_the_training_when_rows_hold_several_documents():
    plain = run([Rows(TOKENS, TARGETS)], causal_mask)
    packed = run([Rows(TOKENS, TARGETS, doc_ids=row_doc_ids(TOKENS, 0))], causal_mask)
    assert not is_rounding(flat(plain.params) - flat(packed.params))


def test_row_doc_ids_and_first_tokens():
    ids = row_doc_ids(TOKENS, 0)
    assert ids[0].tolist() == [0, 0, 0, 0, 1, 1, 1, 1, 1]
    assert ids[1].tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    first = first_tokens(ids, 2)
    assert np.flatnonzero(first[1]).tolist() == [3, 4, 6, 7]  # documents 1 and 2 of row 1, not document 0
    assert np.flatnonzero(first[2]).tolist() == [8]

"""Chapter 7's decoder trained on packed rows, with and without the document mask: the same weights, the same batches.

A row of chapter 7's text holds several sentences, each starting at the boundary token; here each sentence is a
document. The causal run is chapter 7's own (primer.experiments.trained_decoder); the document run trains from the
same initial weights on the same batches, its rows carrying their document ids, so only the mask differs. Both are
judged on held-out rows under the document mask, on the first tokens of every document that starts inside a row
(the tokens the two masks treat differently).
"""

import functools
from dataclasses import dataclass

import numpy as np

from primer._checks import positive_int
from primer.backprop_stack import decoder_forward
from primer.experiments import language_model
from primer.experiments.trained_decoder import TRAINING_KEYS, frozen_setup, trained_decoder
from primer.masks import causal_mask
from primer.training import Rows, train
from primer.transformer import init_stack


def row_doc_ids(tokens, boundary_id):  # [r, n] -> [r, n]
    """Return each token's document in its row: a new document starts at every boundary token (0 for the first)."""
    tokens = np.asarray(tokens)
    return np.maximum(np.cumsum(tokens == boundary_id, axis=1) - 1, 0)


def first_tokens(doc_ids, k):  # [r, n] -> [r, n] bool
    """Return where a target is one of the first k of a document that starts inside its row (not at position 0)."""
    doc_ids, k = np.asarray(doc_ids), positive_int("k", k)
    offset = np.zeros(doc_ids.shape, int)  # each token's position within its document
    for j in range(1, doc_ids.shape[1]):
        offset[:, j] = np.where(doc_ids[:, j] == doc_ids[:, j - 1], offset[:, j - 1] + 1, 0)
    return (offset < k) & (doc_ids > 0)


def packed_losses(params, cfg, tokens, targets, doc_ids, where):  # [r, n] x3, [r, n] bool -> float
    """Return the mean cross-entropy where `where` holds, each row read under its document mask."""
    n = tokens.shape[1]
    mask = causal_mask(n)[None, None] & (doc_ids[:, None, :, None] == doc_ids[:, None, None, :])  # [r, 1, n, n]
    z = decoder_forward(params, tokens, mask, cfg.n_heads)[0]
    z = z - z.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    return float(-np.take_along_axis(logp, targets[..., None], axis=-1)[..., 0][where].mean())


@dataclass(frozen=True, eq=False)
class PackedRun:
    """One seed's pair of runs and their held-out losses under the document mask."""

    seed: int
    first_causal: float  # the causal-trained model, on the documents' first tokens
    first_document: float  # the document-trained model, on the same tokens
    all_causal: float  # the causal-trained model, on every held-out target
    all_document: float
    n_first: int  # how many targets the first-token loss averages


@functools.lru_cache(maxsize=16)
def _packed_run(setup, first):  # frozen trained_decoder arguments -> PackedRun
    grammar, model, corpus_args, training, seed = setup
    kwargs = dict(model=dict(model), corpus_args=dict(corpus_args), training=dict(training), seed=seed)
    data, cfg, causal = trained_decoder({s: alts for s, alts in grammar}, **kwargs)
    *_, init_seed, batch_seed = language_model.seeds(seed)
    boundary = data.vocab.index(language_model.BOUNDARY)
    task = [Rows(data.tokens, data.targets, doc_ids=row_doc_ids(data.tokens, boundary))]
    steps = {k: v for k, v in training if k != "every"}
    document = train(init_stack(init_seed, cfg), cfg, task, self_mask=causal_mask, seed=batch_seed, **steps).params
    held = data.heldout_tokens, data.heldout_targets, row_doc_ids(data.heldout_tokens, boundary)
    where, everywhere = first_tokens(held[2], first), np.ones(held[0].shape, bool)
    return PackedRun(
        seed,
        packed_losses(causal.params, cfg, *held, where),
        packed_losses(document, cfg, *held, where),
        packed_losses(causal.params, cfg, *held, everywhere),
        packed_losses(document, cfg, *held, everywhere),
        int(where.sum()),
    )


def packed_runs(grammar, *, model, corpus_args, training, seeds, first):  # -> [PackedRun] one per seed
    """Return, per seed, chapter 7's causal run and a run under the document mask, judged on held-out packed rows.

    The arguments are trained_decoder's (seeds in place of seed); first is how many of each document's first
    targets the first-token loss takes. Computed once per process.
    """
    if set(training) != set(TRAINING_KEYS):
        raise ValueError(f"training must have exactly the keys {list(TRAINING_KEYS)}, got {sorted(training)}")
    if not len(seeds):
        raise ValueError("seeds must hold at least one seed")
    first = positive_int("first", first)
    kw = dict(model=model, corpus_args=corpus_args, training=training)
    return [_packed_run(frozen_setup(grammar, **kw, seed=s), first) for s in seeds]

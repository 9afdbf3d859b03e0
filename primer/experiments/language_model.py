"""A tiny language model's data: text drawn from a grammar, split so that held-out sentences never occur in training.

The grammar's sentences are cut in two by a seed; the training text is drawn from one part, the
held-out text from the other, so no held-out sentence is ever seen in training. Both are cut into
rows of next-token exercises. With them come the references every loss is read against: the
grammar's exact floor (for held-out rows), the training text's own floor (the grammar restricted to
the training side, for training rows) and the loss of guessing, ln V.
"""

from dataclasses import dataclass

import numpy as np

from primer import corpus
from primer._checks import nonneg_int
from primer.experiments import grammar as grammars

BOUNDARY = "."  # ends every sentence; every row and prompt starts with it


@dataclass(frozen=True, eq=False)
class Data:
    """The corpus, its split and rows, and the references a loss on it is read against."""

    words: list  # the training text, every sentence in order, starting at the boundary
    heldout_words: list  # the held-out text, drawn from the other part of the split
    n_sentences: int
    n_heldout_sentences: int
    n_possible: int  # sentences the grammar can make
    train_part: tuple  # the sentences the training text may use
    heldout_part: tuple  # the sentences the held-out text may use: none of them in train_part
    overlap: int  # distinct sentences that occur in both texts (0 by construction; counted, not assumed)
    vocab: tuple
    tokens: np.ndarray  # [rows, n] ids
    targets: np.ndarray  # [rows, n] ids: the next token of each
    heldout_tokens: np.ndarray
    heldout_targets: np.ndarray
    floor: float  # the grammar's exact conditional entropy on rows of n tokens: the best any model does on average
    chance: float  # ln V: every word equally likely
    grammar_heldout_loss: float  # the grammar itself, used as the model, on the held-out rows
    choice: np.ndarray  # [heldout rows, n] bool: where the grammar leaves more than one next word
    grammar_p_choice: float  # the grammar's mean probability of the true next word there
    train_floor: float  # the training text's own floor: the grammar restricted to train_part, on rows of n tokens


def seeds(seed):  # -> 7 ints
    """Return the seeds one experiment seed fixes: split, training draw, held-out draw, their rows, weights, batches."""
    return tuple(int(s) for s in np.random.SeedSequence(nonneg_int("seed", seed)).generate_state(7))


def sentence_set(sentences):  # [k] lists of words -> set of tuples
    """Return the distinct sentences of a list, as tuples."""
    return {tuple(s) for s in sentences}


def make_data(
    grammar, *, heldout_share, n_sentences, n_heldout_sentences, n, n_rows, n_heldout_rows, seed, boundary=BOUNDARY
):
    """Return the text drawn from both parts of the grammar's split, its rows and its references, all fixed by seed."""
    split_seed, train_seed, held_seed, rows_seed, held_rows_seed, _, _ = seeds(seed)
    train_part, heldout_part = grammars.split(grammar, heldout_share, split_seed)
    train_s = grammars.sentences(grammar, n_sentences, train_seed, among=train_part)
    held_s = grammars.sentences(grammar, n_heldout_sentences, held_seed, among=heldout_part)
    every = grammars.all_sentences(grammar)
    vocab = corpus.vocabulary([boundary] + [w for s in every for w in s])
    words = [boundary] + [w for s in train_s for w in s]  # the text starts at a boundary, like each row
    held = [boundary] + [w for s in held_s for w in s]
    tokens, targets = corpus.rows(words, vocab, n, n_rows, rows_seed, boundary=boundary)
    h_tokens, h_targets = corpus.rows(held, vocab, n, n_heldout_rows, held_rows_seed, boundary=boundary)
    p, options = grammars.row_probs(grammar, vocab, h_tokens, h_targets, boundary=boundary)
    choice = options > 1
    return Data(
        words,
        held,
        n_sentences,
        n_heldout_sentences,
        len(every),
        train_part,
        heldout_part,
        len(sentence_set(train_s) & sentence_set(held_s)),
        vocab,
        tokens,
        targets,
        h_tokens,
        h_targets,
        grammars.conditional_entropy(grammar, n, boundary=boundary),
        float(np.log(len(vocab))),
        float(-np.log(p).mean()),
        choice,
        float(p[choice].mean()),
        grammars.conditional_entropy(grammar, n, boundary=boundary, among=train_part),
    )

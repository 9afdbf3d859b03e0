"""primer.corpus: rows of next-token exercises, the n-gram score."""

import numpy as np
import pytest

from primer import corpus
from primer.experiments import grammar

pytestmark = pytest.mark.unit

TOY = {"S": (("A", "B", "."),), "A": (("x",), ("y",)), "B": (("z",), ("w", "z"))}


def test_rows_start_at_a_boundary_and_targets_are_the_next_word():
    words = ["."] + [w for s in grammar.sentences(TOY, 40, 0) for w in s]
    vocab = corpus.vocabulary(words)
    tokens, targets = corpus.rows(words, vocab, 5, 10, 0, boundary=".")
    assert tokens.shape == targets.shape == (10, 5)
    assert (tokens[:, 0] == vocab.index(".")).all()
    assert np.array_equal(tokens[:, 1:], targets[:, :-1])


def test_ngram_share_counts_only_after_the_prompt():
    text = ["a", "b", "c", "x"]
    assert corpus.ngram_share([text], ["a", "b", "c"], 2) == (2, 3)  # ab, bc found; cx not
    assert corpus.ngram_share([text], ["a", "b", "c"], 2, skip=2) == (1, 2)  # only bc and cx end at index >= 2


def test_ngram_share_takes_a_set_of_ngrams_as_the_reference():
    assert corpus.ngram_share([["a", "b", "c", "x"]], {("a", "b"), ("b", "c")}, 2) == (2, 3)

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from primer.vocab import CAT_VOCAB, to_ids, to_words

VOCAB = ("<bos>", "the", "cat", "sat")


@given(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=20))
def test_ids_and_words_round_trip(words):
    assert to_words(to_ids(words, VOCAB), VOCAB) == words


def test_unknown_words_are_named():
    with pytest.raises(ValueError, match=r"unknown \['dog'\]"):
        to_ids(["the", "dog"], VOCAB)


def test_the_chapter_6_7_vocabulary():
    assert to_ids(["the", "cat"], CAT_VOCAB).tolist() == [CAT_VOCAB.index("the"), CAT_VOCAB.index("cat")]
    assert len(set(CAT_VOCAB)) == len(CAT_VOCAB)


@pytest.mark.parametrize("ids, words", [([0, 4], r"ids in \[0, 4\), got \[4\]"), ([[0]], "1-D"), (np.array([0.5]), "integer ids")])
def test_ids_outside_the_vocabulary_are_refused(ids, words):
    with pytest.raises(ValueError, match=words):
        to_words(ids, VOCAB)

import pytest
from hypothesis import given
from hypothesis import strategies as st

from primer.vocab import to_ids, to_words

VOCAB = ("<bos>", "the", "cat", "sat")


@given(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=20))
def test_ids_and_words_round_trip(words):
    assert to_words(to_ids(words, VOCAB), VOCAB) == words


def test_unknown_words_are_named():
    with pytest.raises(ValueError, match=r"unknown \['dog'\]"):
        to_ids(["the", "dog"], VOCAB)

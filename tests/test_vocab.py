from hypothesis import given
from hypothesis import strategies as st

from primer.vocab import CAT_VOCAB, to_ids, to_words

VOCAB = ("<bos>", "the", "cat", "sat")


@given(st.lists(st.sampled_from(VOCAB), min_size=1, max_size=20))
def test_ids_and_words_round_trip(words):
    assert to_words(to_ids(words, VOCAB), VOCAB) == words


def test_the_chapter_6_7_vocabulary():
    assert to_ids(["the", "cat"], CAT_VOCAB).tolist() == [CAT_VOCAB.index("the"), CAT_VOCAB.index("cat")]
    assert len(set(CAT_VOCAB)) == len(CAT_VOCAB)

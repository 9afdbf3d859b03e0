"""experiments.translation: the second language's word order, its alignment, and a split that holds sentences out."""

import numpy as np

from primer.experiments import grammar as grammars
from primer.experiments.translation import alignment, make_pairs, translate
from primer.inputs.decoder import GRAMMAR
from primer.inputs.encoder_decoder import HEAD_FINAL, HELDOUT_SHARE, LEXICON


def test_every_phrase_runs_backwards_and_the_sentence_keeps_its_order():
    words, order = translate("the cat sat on the mat .".split(), GRAMMAR, LEXICON, HEAD_FINAL)
    assert list(order) == [1, 0, 5, 4, 3, 2, 6]  # cat the | mat the on sat | .
    assert words == [LEXICON[w] for w in "cat the mat the on sat .".split()]
    assert list(alignment("a dog ate an egg .".split(), GRAMMAR, HEAD_FINAL)) == [1, 0, 4, 3, 2, 5]


def test_no_reordering_rule_gives_the_diagonal():
    for s in grammars.all_sentences(GRAMMAR):
        assert list(alignment(s, GRAMMAR, ())) == list(range(len(s)))


def test_every_alignment_is_a_permutation_and_none_is_the_diagonal():
    pairs = make_pairs(GRAMMAR, LEXICON, HEAD_FINAL, HELDOUT_SHARE, 0)
    assert len(pairs.alignments) == len(grammars.all_sentences(GRAMMAR))
    for s, a in pairs.alignments.items():
        assert sorted(a) == list(range(len(s)))
    assert pairs.diagonal == 0


def test_held_out_sources_never_occur_in_training_and_the_split_follows_the_seed():
    a, b = (make_pairs(GRAMMAR, LEXICON, HEAD_FINAL, HELDOUT_SHARE, s) for s in (0, 1))
    for pairs in (a, b):
        train = {s for s, _ in pairs.train}
        assert pairs.overlap == 0 and not train & {s for s, _ in pairs.heldout}
        assert len(pairs.heldout) == round(HELDOUT_SHARE * len(grammars.all_sentences(GRAMMAR)))
    assert {s for s, _ in a.heldout} != {s for s, _ in b.heldout}


def test_one_vocabulary_holds_both_languages_and_starts_at_bos():
    pairs = make_pairs(GRAMMAR, LEXICON, HEAD_FINAL, HELDOUT_SHARE, 0)
    assert pairs.vocab[0] == "<bos>"
    assert set(pairs.vocab) == {"<bos>"} | set(LEXICON) | set(LEXICON.values())
    assert np.all([len(s) == len(t) for s, t in pairs.train + pairs.heldout])

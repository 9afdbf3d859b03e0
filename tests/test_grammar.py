"""experiments.grammar: sentences and their exact probabilities, the held-out split, the floor, its n-grams."""

import numpy as np
import pytest

from primer import corpus
from primer.experiments import grammar
from primer.inputs.decoder import GRAMMAR

pytestmark = pytest.mark.unit

TOY = {"S": (("A", "B", "."),), "A": (("x",), ("y",)), "B": (("z",), ("w", "z"))}


def test_sentences_follow_the_grammar_and_the_seed():
    drawn = grammar.sentences(TOY, 50, 3)
    assert all(tuple(s) in grammar.all_sentences(TOY) for s in drawn)
    assert drawn == grammar.sentences(TOY, 50, 3) and drawn != grammar.sentences(TOY, 50, 4)
    assert set(grammar.all_sentences(TOY)) == {
        ("x", "z", "."),
        ("x", "w", "z", "."),
        ("y", "z", "."),
        ("y", "w", "z", "."),
    }


def test_sentences_among_a_set_draw_only_from_it():
    among = {("x", "z", "."), ("y", "w", "z", ".")}
    assert {tuple(s) for s in grammar.sentences(TOY, 40, 0, among=among)} == among


def test_probabilities_are_exact_and_sum_to_one():
    probs = grammar.sentence_probs(TOY)
    assert probs == {
        ("x", "z", "."): 0.25,
        ("x", "w", "z", "."): 0.25,
        ("y", "z", "."): 0.25,
        ("y", "w", "z", "."): 0.25,
    }
    assert abs(sum(grammar.sentence_probs(GRAMMAR).values()) - 1) < 1e-12


def test_the_chapter_grammar_makes_128_sentences():
    assert len(grammar.all_sentences(GRAMMAR)) == 2 * 4 * (5 + 5 + 2 + 4)  # subject x verb phrase


@pytest.mark.parametrize("seed", range(5))
def test_the_split_is_disjoint_and_covers_every_sentence(seed):
    train, held = grammar.split(GRAMMAR, 0.25, seed)
    assert not set(train) & set(held) and set(train) | set(held) == set(grammar.all_sentences(GRAMMAR))
    assert len(held) == 32


def test_the_floor_of_a_grammar_with_no_choice_is_zero_and_of_a_coin_is_known():
    assert abs(grammar.conditional_entropy({"S": (("a", "b", "."),)}, 9)) < 1e-15  # every choice has p = 1
    # one coin flip per sentence of 2 words (the word, "."): over a row of 8 the flip comes 4 times
    assert abs(grammar.conditional_entropy({"S": (("a", "."), ("b", "."))}, 8) - np.log(2) / 2) < 1e-12


def test_the_floor_is_the_mean_loss_of_the_grammar_itself_on_many_rows():
    words = ["."] + [w for s in grammar.sentences(GRAMMAR, 6000, 0) for w in s]
    vocab = corpus.vocabulary(words)
    tokens, targets = corpus.rows(words, vocab, 16, 4000, 0, boundary=".")
    p, options = grammar.row_probs(GRAMMAR, vocab, tokens, targets)
    assert (p > 0).all() and (options >= 1).all()
    assert abs(-np.log(p).mean() - grammar.conditional_entropy(GRAMMAR, 16)) < 0.02  # sampling error, measured 0.003


def test_restricted_to_one_side_of_a_split_the_floor_is_that_sides_text_own_and_lower():
    kept, _ = grammar.split(GRAMMAR, 0.25, 0)
    probs = grammar.restricted_probs(GRAMMAR, kept)
    assert set(probs) == set(kept) and abs(sum(probs.values()) - 1) < 1e-12
    floor = grammar.conditional_entropy(GRAMMAR, 16, among=kept)
    assert floor < grammar.conditional_entropy(GRAMMAR, 16) - 0.01  # fewer sentences, fewer choices
    # The same floor is the mean loss of the restricted grammar on many rows of text drawn from that side only
    words = ["."] + [w for s in grammar.sentences(GRAMMAR, 6000, 0, among=kept) for w in s]
    vocab = corpus.vocabulary(["."] + [w for s in grammar.all_sentences(GRAMMAR) for w in s])
    tokens, targets = corpus.rows(words, vocab, 16, 4000, 0, boundary=".")
    p, _ = grammar.row_probs(GRAMMAR, vocab, tokens, targets, among=kept)
    assert (p > 0).all() and abs(-np.log(p).mean() - floor) < 0.02  # sampling error
    # A coin restricted to one face leaves no choice: the floor is 0
    assert abs(grammar.conditional_entropy({"S": (("a", "."), ("b", "."))}, 8, among=[("a", ".")])) < 1e-15


def test_every_trigram_of_drawn_text_is_one_the_grammar_can_make():
    words = ["."] + [w for s in grammar.sentences(GRAMMAR, 300, 1) for w in s]
    allowed = grammar.ngrams(GRAMMAR, 3)
    assert corpus.ngram_share([words], allowed, 3) == (len(words) - 2, len(words) - 2)
    assert ("cat", "cat", "cat") not in allowed

"""A toy translation the project owns: a grammar's sentences, word for word into a language whose phrases run backwards.

The second language has a word for each word of the first (a lexicon) and one reordering rule:
inside every phrase whose symbol is listed as head-final, the parts come in reverse order ("the
cat" becomes "cat the", "sat on the mat" becomes "mat the on sat"). A sentence is parsed with the
grammar, the rule is applied to its parse, and the words are looked up. Each target word comes from
one source word, so the alignment is a permutation; it is not the diagonal. Pairs are split by the
grammar's seeded split (primer.experiments.grammar.split), so a held-out source sentence never occurs in training.
"""

from dataclasses import dataclass

import numpy as np

from primer.experiments import grammar as grammars
from primer.vocab import BOS


def _parses(symbol, words, i, grammar):  # -> iterator of (tree, end); a leaf is the source position of a word
    if symbol not in grammar:
        if i < len(words) and words[i] == symbol:
            yield i, i + 1
        return
    for alt in grammar[symbol]:
        for children, end in _sequence(alt, words, i, grammar):
            yield (symbol, children), end


def _sequence(parts, words, i, grammar):  # -> iterator of (list of trees, end)
    if not parts:
        yield [], i
        return
    for tree, mid in _parses(parts[0], words, i, grammar):
        for rest, end in _sequence(parts[1:], words, mid, grammar):
            yield [tree] + rest, end


def _order(tree, head_final):  # -> list of source positions in the target's order
    if isinstance(tree, int):
        return [tree]
    symbol, children = tree
    parts = [_order(child, head_final) for child in children]
    if symbol in head_final:
        parts = parts[::-1]
    return [i for part in parts for i in part]


def alignment(sentence, grammar, head_final, start="S"):  # [n] words -> [n] source positions
    """Return, for each target position, the source position its word translates: the grammar's parse, reordered."""
    grammar = grammars.validate_grammar(grammar, start)
    words = list(sentence)
    orders = {tuple(_order(t, set(head_final))) for t, end in _parses(start, words, 0, grammar) if end == len(words)}
    if not orders:
        raise ValueError(f"sentence must be a sentence of the grammar, got {' '.join(map(str, words))!r}")
    if len(orders) > 1:
        raise ValueError(f"sentence must have one word order in the second language, got {len(orders)} for {words!r}")
    return np.array(orders.pop(), dtype=int)


def translate(sentence, grammar, lexicon, head_final, start="S"):  # [n] words -> ([n] words, [n] positions)
    """Return the sentence in the second language and its alignment (the source position of each target word)."""
    order = alignment(sentence, grammar, head_final, start)
    missing = sorted({w for w in sentence if w not in lexicon})
    if missing:
        raise ValueError(f"lexicon must give a word for every source word, missing {missing}")
    return [lexicon[sentence[i]] for i in order], order


@dataclass(frozen=True, eq=False)
class Pairs:
    """Sentence pairs of the toy translation, split so that no held-out source sentence occurs in training."""

    train: tuple  # ((source words), (target words)) pairs for training
    heldout: tuple  # pairs whose source sentences never occur in train
    alignments: dict  # source sentence (tuple) -> [n] source position of each target word
    vocab: tuple  # one vocabulary for both languages; BOS first (the decoder's start, the prompt's separator)
    overlap: int  # source sentences in both parts (0 by construction; counted, not assumed)
    diagonal: int  # pairs whose alignment is the diagonal (source and target in the same order)


def make_pairs(grammar, lexicon, head_final, heldout_share, seed, start="S"):  # -> Pairs
    """Return every sentence of the grammar with its translation, split by the seed into training and held-out pairs."""
    if len(set(lexicon.values())) != len(lexicon):
        raise ValueError("lexicon must give different source words different target words (one word each)")
    train_part, heldout_part = grammars.split(grammar, heldout_share, seed, start)
    aligned = {s: translate(s, grammar, lexicon, head_final, start) for s in train_part + heldout_part}
    pairs = [tuple((s, tuple(aligned[s][0])) for s in part) for part in (train_part, heldout_part)]
    source_words = [w for s in train_part + heldout_part for w in s]
    target_words = [w for _, t in pairs[0] + pairs[1] for w in t]
    vocab = tuple(dict.fromkeys([BOS] + source_words + target_words))
    diagonal = sum(bool((a == np.arange(len(a))).all()) for _, a in aligned.values())
    return Pairs(
        pairs[0],
        pairs[1],
        {s: a for s, (_, a) in aligned.items()},
        vocab,
        len({s for s, _ in pairs[0]} & {s for s, _ in pairs[1]}),
        diagonal,
    )

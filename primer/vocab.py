"""Word-level toy vocabularies: a tuple of words, where a word's id is its index."""

import numpy as np


def to_ids(words, vocab):  # [n] words -> [n] int ids
    """Return the id of each word in vocab, or raise ValueError naming the unknown words."""
    index = {w: i for i, w in enumerate(vocab)}
    unknown = [w for w in words if w not in index]
    if unknown:
        raise ValueError(f"words must all be in vocab, got unknown {unknown}")
    return np.array([index[w] for w in words], dtype=int)


def to_words(token_ids, vocab):  # [n] ids -> [n] words
    """Return the word of each id."""
    return [vocab[int(i)] for i in token_ids]

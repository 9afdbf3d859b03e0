"""A text cut into rows of next-token exercises, its vocabulary, and the n-gram score of generated text."""

import numpy as np

from primer._checks import nonneg_int, positive_int


def vocabulary(words):  # [m] words -> tuple of distinct words
    """Return each distinct word once, in order of first appearance (a word's id is its index)."""
    return tuple(dict.fromkeys(words))


def rows(words, vocab, n, n_rows, seed, *, boundary):  # [m] words -> ([n_rows, n] ids, [n_rows, n] ids)
    """Return n_rows windows of n tokens, each starting at a `boundary` word, and the next token of each as its target.

    The windows start at boundaries drawn without replacement by the seed.
    """
    index = {w: i for i, w in enumerate(vocab)}
    unknown = sorted(set(words) - set(index))
    if unknown:
        raise ValueError(f"words must all be in vocab, got unknown {unknown}")
    n, n_rows = positive_int("n", n), positive_int("n_rows", n_rows)
    ids = np.array([index[w] for w in words], dtype=int)
    starts = [i for i, w in enumerate(words) if w == boundary and i + n + 1 <= len(words)]
    if n_rows > len(starts):
        raise ValueError(
            f"n_rows must be at most the {len(starts)} windows of n + 1 = {n + 1} words that start at "
            f"{boundary!r}, got {n_rows}"
        )
    chosen = np.random.default_rng(nonneg_int("seed", seed)).choice(starts, n_rows, replace=False)
    windows = np.stack([ids[s : s + n + 1] for s in chosen])
    return windows[:, :-1], windows[:, 1:]


def ngram_share(texts, corpus, n=3, *, skip=0):  # [k] lists of words, [m] words or a set of n-grams -> (found, total)
    """Return how many of the texts' n-grams occur in the corpus (a text or a set of n-grams), and how many in all.

    Only n-grams that end at index >= skip are counted (skip = the prompt's length: judge the
    generated words, not the prompt).
    """
    n, skip = positive_int("n", n), nonneg_int("skip", skip)
    if isinstance(corpus, (set, frozenset)):
        known = corpus
    else:
        known = {tuple(corpus[i : i + n]) for i in range(len(corpus) - n + 1)}
    found = total = 0
    for text in texts:
        for end in range(max(skip, n - 1), len(text)):
            total += 1
            found += tuple(text[end - n + 1 : end + 1]) in known
    if total == 0:
        raise ValueError(f"texts must hold at least one {n}-gram ending at or after index skip={skip}")
    return found, total

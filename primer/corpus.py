"""A corpus the project owns: sentences drawn from a small grammar with a seed, cut into next-token rows.

A grammar maps a symbol to its alternatives, each a sequence of symbols and words; a word is
anything that is not a symbol. Drawing from it is fixed by the seed, so the corpus is made, not
shipped. Used in chapters 7 (training under broken masks), 10 and 12 (the trained model).
"""

import numpy as np

from primer._checks import nonneg_int, positive_int


def check_grammar(grammar, start):  # {symbol: ((word or symbol, ...), ...)} -> the same
    """Return grammar if every symbol has at least one non-empty alternative and start is a symbol, or raise ValueError."""
    if not isinstance(grammar, dict) or not grammar:
        raise ValueError("grammar must be a non-empty dict {symbol: alternatives}")
    for symbol, alternatives in grammar.items():
        if not alternatives or any(not alt or any(not isinstance(w, str) for w in alt) for alt in alternatives):
            raise ValueError(
                f"grammar must give each symbol non-empty alternatives of strings, got {symbol!r}: {alternatives!r}"
            )
    if start not in grammar:
        raise ValueError(f"start must be a symbol of grammar, got {start!r}")
    return grammar


def _expand(symbol, grammar, rng, depth):
    if symbol not in grammar:
        return [symbol]
    if depth > 50:
        raise ValueError(f"grammar must not recurse without end: {symbol!r} is still open 50 levels deep")
    alternatives = grammar[symbol]
    words = []
    for part in alternatives[rng.integers(len(alternatives))]:
        words += _expand(part, grammar, rng, depth + 1)
    return words


def sentences(grammar, n_sentences, seed, start="S"):  # -> [n_sentences] lists of words
    """Return n_sentences drawn from the grammar, each alternative equally likely, fixed by the seed. Used in chapter 7."""
    grammar = check_grammar(grammar, start)
    n_sentences = positive_int("n_sentences", n_sentences)
    rng = np.random.default_rng(nonneg_int("seed", seed))
    return [_expand(start, grammar, rng, 0) for _ in range(n_sentences)]


def vocabulary(words):  # [m] words -> tuple of distinct words
    """Return each distinct word once, in order of first appearance (a word's id is its index). Used in chapter 7."""
    return tuple(dict.fromkeys(words))


def rows(words, vocab, n, n_rows, seed, *, boundary):  # [m] words -> ([n_rows, n] ids, [n_rows, n] ids)
    """Return n_rows windows of n tokens, each starting at a `boundary` word, and the next token of each as its target.

    The windows start at boundaries drawn without replacement by the seed. Used in chapter 7.
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


def ngram_share(texts, corpus, n=3, *, skip=0):  # [k] lists of words, [m] words -> (found, total)
    """Return how many of the texts' n-grams occur in the corpus, and how many there are.

    Only n-grams that end at index >= skip are counted (skip = the prompt's length: judge the
    generated words, not the prompt). Used in chapter 7.
    """
    n, skip = positive_int("n", n), nonneg_int("skip", skip)
    known = {tuple(corpus[i : i + n]) for i in range(len(corpus) - n + 1)}
    found = total = 0
    for text in texts:
        for end in range(max(skip, n - 1), len(text)):
            total += 1
            found += tuple(text[end - n + 1 : end + 1]) in known
    if total == 0:
        raise ValueError(f"texts must hold at least one {n}-gram ending at or after index skip={skip}")
    return found, total


def all_sentences(grammar, start="S", limit=10_000):  # -> sorted tuple of word tuples
    """Return every distinct sentence the grammar can make (a grammar without recursion), or raise past limit. Used in chapter 7."""
    grammar = check_grammar(grammar, start)
    limit = positive_int("limit", limit)

    def expand(symbol, depth):
        if symbol not in grammar:
            return {(symbol,)}
        if depth > 50:
            raise ValueError(f"grammar must not recurse: {symbol!r} is still open 50 levels deep")
        out = set()
        for alt in grammar[symbol]:
            partial = {()}
            for part in alt:
                partial = {a + b for a in partial for b in expand(part, depth + 1)}
                if len(partial) > limit:
                    raise ValueError(f"limit: the grammar makes more than {limit} sentences")
            out |= partial
        return out

    return tuple(sorted(expand(start, 0)))

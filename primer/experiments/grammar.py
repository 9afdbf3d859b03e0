"""A small grammar the project owns: its sentences, their exact probabilities, a held-out split, and its floor.

A grammar maps a symbol to its alternatives, each a sequence of symbols and words; a word is
anything that is not a symbol; every alternative of a symbol is equally likely. The grammar has no
recursion, so every sentence and its probability can be listed, and with them the best loss any
model can reach on text drawn from it: the exact conditional entropy of the next word.
"""

import numpy as np

from primer._checks import nonneg_int, positive_int


def validate_grammar(grammar, start):  # {symbol: ((word or symbol, ...), ...)} -> the same
    """Return grammar if every symbol has a non-empty alternative and start is a symbol, or raise ValueError."""
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


def frozen(grammar):  # {symbol: alternatives} -> ((symbol, ((word or symbol, ...), ...)), ...)
    """Return grammar as nested tuples, hashable, so a cached run can be keyed by it."""
    return tuple((symbol, tuple(tuple(alt) for alt in alts)) for symbol, alts in grammar.items())


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


def sentences(grammar, n_sentences, seed, start="S", *, among=None):  # -> [n_sentences] lists of words
    """Return n_sentences drawn from the grammar, fixed by the seed; with among, only sentences in that set are kept.

    Keeping only the sentences of a set draws from the grammar's distribution restricted to it.
    """
    grammar = validate_grammar(grammar, start)
    n_sentences = positive_int("n_sentences", n_sentences)
    rng = np.random.default_rng(nonneg_int("seed", seed))
    if among is not None:
        among = {tuple(s) for s in among}
        if not among & set(all_sentences(grammar, start)):
            raise ValueError("among must hold at least one sentence the grammar can make")
    out = []
    while len(out) < n_sentences:
        s = _expand(start, grammar, rng, 0)
        if among is None or tuple(s) in among:
            out.append(s)
    return out


def sentence_probs(grammar, start="S", limit=10_000):  # -> {sentence (tuple of words): probability}
    """Return every sentence the grammar can make with its exact probability (each alternative equally likely)."""
    grammar = validate_grammar(grammar, start)
    limit = positive_int("limit", limit)

    def expand(symbol, depth):  # -> {words: probability}
        if symbol not in grammar:
            return {(symbol,): 1.0}
        if depth > 50:
            raise ValueError(f"grammar must not recurse: {symbol!r} is still open 50 levels deep")
        out = {}
        share = 1.0 / len(grammar[symbol])
        for alt in grammar[symbol]:
            partial = {(): share}
            for part in alt:
                partial = {a + b: p * q for a, p in partial.items() for b, q in expand(part, depth + 1).items()}
                if len(partial) > limit:
                    raise ValueError(f"limit: the grammar makes more than {limit} sentences")
            for words, p in partial.items():
                out[words] = out.get(words, 0.0) + p  # two derivations of one sentence add up
        return out

    return expand(start, 0)


def all_sentences(grammar, start="S", limit=10_000):  # -> sorted tuple of word tuples
    """Return every distinct sentence the grammar can make (a grammar without recursion), or raise past limit."""
    return tuple(sorted(sentence_probs(grammar, start, limit)))


def split(grammar, heldout_share, seed, start="S"):  # -> (training sentences, held-out sentences), disjoint
    """Return the grammar's sentences cut in two by the seed: a share held out, the rest for training; none in both."""
    share = float(heldout_share)
    if not 0 < share < 1:
        raise ValueError(f"heldout_share must be a number strictly between 0 and 1, got {heldout_share!r}")
    every = all_sentences(grammar, start)
    k = round(share * len(every))
    if not 0 < k < len(every):
        raise ValueError(f"heldout_share must leave at least one sentence on each side of {len(every)}, got {share}")
    order = np.random.default_rng(nonneg_int("seed", seed)).permutation(len(every))
    held = tuple(sorted(every[i] for i in order[:k]))
    return tuple(sorted(every[i] for i in order[k:])), held


def _next_words(probs):  # {sentence: p} -> {prefix: {word: p}}: the probability of each next word after a prefix
    mass = {}
    for s, p in probs.items():
        for t in range(len(s)):
            mass.setdefault(s[:t], {}).setdefault(s[t], 0.0)
            mass[s[:t]][s[t]] += p
    return {prefix: {w: p / sum(d.values()) for w, p in d.items()} for prefix, d in mass.items()}


def row_probs(
    grammar, vocab, tokens, targets, *, boundary=".", start="S", among=None
):  # [r, n] ids -> ([r, n], [r, n])
    """Return the probability the grammar gives each target, and how many words it allows there.

    Each row must start at `boundary`; the grammar reads the words of the current sentence, as the
    best model would. A target the grammar never puts there gets probability 0. With among, the
    grammar is restricted to those sentences (restricted_probs).
    """
    probs = sentence_probs(grammar, start) if among is None else restricted_probs(grammar, among, start)
    table = _next_words(probs)
    tokens, targets = np.atleast_2d(tokens), np.atleast_2d(targets)
    if tokens.shape != targets.shape:
        raise ValueError(f"targets must have the shape of tokens, got {targets.shape} and {tokens.shape}")
    if (tokens[:, 0] != vocab.index(boundary)).any():
        raise ValueError(f"tokens must start every row at the boundary {boundary!r}")
    p, options = np.zeros(tokens.shape), np.zeros(tokens.shape, dtype=int)
    for r in range(tokens.shape[0]):
        prefix = ()
        for t in range(tokens.shape[1]):
            word = vocab[tokens[r, t]]
            prefix = () if word == boundary else prefix + (word,)
            nxt = table.get(prefix, {})
            p[r, t], options[r, t] = nxt.get(vocab[targets[r, t]], 0.0), len(nxt)
    return p, options


def restricted_probs(grammar, among, start="S"):  # -> {sentence: probability}, summing to 1 over among
    """Return the grammar's sentence probabilities restricted to the sentences of among and scaled to sum to 1.

    This is the distribution sentences(..., among=among) draws from.
    """
    probs = sentence_probs(grammar, start)
    kept = {tuple(s) for s in among} & set(probs)
    if not kept:
        raise ValueError("among must hold at least one sentence the grammar can make")
    total = sum(probs[s] for s in kept)
    return {s: probs[s] / total for s in sorted(kept)}


def conditional_entropy(grammar, n, *, boundary=".", start="S", among=None):  # -> float, nats per token
    """Return the exact expected loss of the best possible model on rows of n tokens that start at boundary.

    The state is the current sentence's words so far; its distribution is carried row position by row
    position, and each state contributes the entropy of its next word. This is the floor: no model
    that reads only the past does better on average. With among, the text is drawn from the grammar
    restricted to those sentences (restricted_probs), and the floor is that text's own.
    """
    n = positive_int("n", n)
    probs = sentence_probs(grammar, start) if among is None else restricted_probs(grammar, among, start)
    table = _next_words(probs)
    if any(s[-1] != boundary for s in all_sentences(grammar, start)):
        raise ValueError(f"boundary must end every sentence of the grammar, got {boundary!r}")
    entropy = {u: -sum(p * np.log(p) for p in d.values()) for u, d in table.items()}
    state, total = {(): 1.0}, 0.0  # position 0 reads the boundary: a sentence starts next
    for _ in range(n):
        total += sum(q * entropy[u] for u, q in state.items())
        new = {}
        for u, q in state.items():
            for w, p in table[u].items():
                v = () if w == boundary else u + (w,)
                new[v] = new.get(v, 0.0) + q * p
        state = new
    return total / n


def ngrams(grammar, n, *, boundary=".", start="S"):  # -> set of n-word tuples
    """Return every n-gram the grammar can put in a text of sentences written one after another."""
    n = positive_int("n", n)
    every = [(boundary,) + s for s in all_sentences(grammar, start)]
    found = {s[i : i + n] for s in every for i in range(len(s) - n + 1)}
    ends = {s[-(n - 1) :] for s in every} if n > 1 else set()
    starts = {s[1:n] for s in every} if n > 1 else set()  # the words after the boundary
    for a in ends:  # n-grams that run across a boundary into the next sentence
        for b in starts:
            joined = a + b
            found |= {joined[i : i + n] for i in range(len(joined) - n + 1)}
    return found


def hidden_word_probs(grammar, left, right, *, start="S"):  # words, words -> {word: probability}
    """Return the grammar's probability of each word at a hidden place, given the words left and right of it.

    left is the sentence so far (from its first word); right is what follows the hidden word, up to
    the sentence's end or cut short. right=() is what a model that reads only the left knows.
    """
    left, right = tuple(left), tuple(right)
    mass = {}
    for s, p in sentence_probs(grammar, start).items():
        t = len(left)
        if len(s) > t and s[:t] == left and s[t + 1 : t + 1 + len(right)] == right:
            mass[s[t]] = mass.get(s[t], 0.0) + p
    if not mass:
        raise ValueError(f"left and right must fit a sentence of the grammar, got {left!r} and {right!r}")
    total = sum(mass.values())
    return {w: p / total for w, p in mass.items()}

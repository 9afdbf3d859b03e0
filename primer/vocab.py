"""Word-level toy vocabularies: a tuple of words, where a word's id is its index."""

import numpy as np

BOS, MASK = "<bos>", "[MASK]"  # the start token a decoder begins from; BERT's hidden-word token.

# Words the tiny transformer of chapters 6 and 7 knows, around "the cat sat on the mat"; used in chapters 6 and 7.
CAT_VOCAB = (
    BOS,
    MASK,
    "the",
    "cat",
    "sat",
    "on",
    "mat",
    "rug",
    "dog",
    "ate",
    "fish",
    "slept",
    "a",
    "bird",
    "sang",
    "in",
    "tree",
)


def to_ids(words, vocab, name="words"):  # [n] words -> [n] int ids
    """Return the id of each word in vocab, or raise ValueError naming `name` and the unknown words."""
    index = {w: i for i, w in enumerate(vocab)}
    unknown = [w for w in words if w not in index]
    if unknown:
        raise ValueError(f"{name} must all be in vocab, got unknown {unknown}")
    return np.array([index[w] for w in words], dtype=int)


def to_words(token_ids, vocab):  # [n] ids -> [n] words
    """Return the word of each id, or raise ValueError naming the ids outside the vocabulary."""
    token_ids = np.asarray(token_ids)
    if token_ids.ndim != 1 or (token_ids.size and not np.issubdtype(token_ids.dtype, np.integer)):
        raise ValueError(
            f"token_ids must be a 1-D array of integer ids, got shape {token_ids.shape}, dtype {token_ids.dtype}"
        )
    bad = [int(i) for i in token_ids if not 0 <= i < len(vocab)]
    if bad:
        raise ValueError(f"token_ids must be ids in [0, {len(vocab)}), got {bad}")
    return [vocab[int(i)] for i in token_ids]

"""BERT's masked-LM objective: hide 15 % of the tokens, and guess a hidden one from both sides.

The guesser is not BERT. It is a tiny count-based model (positional naive Bayes) over a corpus of
a few dozen sentences written for this page: a candidate word w scores
log P(w) + sum over the context offsets d of log P(word at offset d | w), with add-one smoothing.
Left-only context uses offsets d < 0; both sides use every offset. It is small enough to check by
hand, and it shows the one thing that matters here: the right-hand context changes the answer.
"""

import numpy as np

from primer._checks import nonneg_int, positive_int
from primer.training import check_mask, decoder_forward
from primer.vocab import MASK

PAD = "<pad>"  # what lies beyond either end of a sentence; used in chapter 6

# The sentence of the masked-LM figure, and the position it hides; used in chapters 6 (encoder) and 7 (decoder).
SENTENCE = ("the", "cat", "sat", "on", "the", "mat")
MASKED_POSITION = 2

# A longer sentence, so that 15 % of it is a whole number of tokens, and the seed of the draw; used in chapter 6.
LONG_SENTENCE = tuple(
    "the cat sat on the mat while the dog slept by the fire and the bird sang outside the window".split()
)
MASK_RATE = 0.15
MASK_SEED = 0

# How far the counting model looks on each side, and its smoothing; used in chapter 6.
LEFT, RIGHT = 2, 3
ALPHA = 1.0

# The corpus the counting model is built from. "the cat sat" never occurs in it: the model has to
# put "cat" on the left and "sat on the ..." on the right together itself.
CORPUS = tuple(
    s.split()
    for s in """
the cat ate the fish
the cat ate its dinner
the cat ate the bird
a cat ate my lunch
the cat ate the cheese
the cat slept all day
the cat chased the dog
the cat drank the milk
the cat ate the mouse
my cat ate too much
the dog sat on the mat
the boy sat on the chair
she sat on the rug
he sat on the floor
the girl sat on the bench
we sat on the grass
the old man sat on the step
the bird sat on the fence
they sat on the sofa
the dog slept on the rug
the dog ate the bone
the dog ran to the park
a dog barked at the cat
the bird sang in the tree
the bird ate the seed
the boy ate the apple
the girl read the book
she put the cup on the table
he put the book on the shelf
the book is on the table
the cup is on the mat
a hat lay on the bed
the mouse ran under the mat
the fish swam in the pond
the man fed the cat
the children played on the grass
the sun rose over the hill
my mother sat by the fire
the boy slept in the car
we ate our dinner
""".strip().splitlines()
)


def mask_tokens(tokens, rate=MASK_RATE, seed=MASK_SEED, vocab=None):  # [n] words -> (list of rows, [n] words)
    """Pick round(rate * n) positions as BERT does, and apply the 80/10/10 rule to each.

    Each picked position becomes [MASK] with probability 0.8, a random vocab word with 0.1, and
    stays itself with 0.1. Returns (rows, corrupted): rows are (position, original, action, shown),
    action one of "mask", "random", "keep"; corrupted is what the model reads.
    """
    tokens = list(tokens)
    if not tokens:
        raise ValueError("tokens must not be empty")
    rate = float(rate)
    if not 0.0 < rate <= 1.0:
        raise ValueError(f"rate must be in (0, 1], got {rate}")
    seed = nonneg_int("seed", seed)
    vocab = sorted(set(tokens)) if vocab is None else list(vocab)
    rng = np.random.default_rng(seed)
    n_pick = max(1, int(round(rate * len(tokens))))
    picked = sorted(int(i) for i in rng.permutation(len(tokens))[:n_pick])
    corrupted = list(tokens)
    rows = []
    for i in picked:
        u = rng.random()
        if u < 0.8:
            action, shown = "mask", MASK
        elif u < 0.9:
            action, shown = "random", vocab[int(rng.integers(len(vocab)))]
        else:
            action, shown = "keep", tokens[i]
        corrupted[i] = shown
        rows.append((i, tokens[i], action, shown))
    return rows, corrupted


class ContextCounter:
    """Count, for every word, which words stand at each offset around it in a corpus."""

    def __init__(self, corpus=CORPUS, left=LEFT, right=RIGHT, alpha=ALPHA):
        self.left = nonneg_int("left", left)
        self.right = nonneg_int("right", right)
        if self.left + self.right == 0:
            raise ValueError("left + right must be >= 1: the model needs at least one context offset")
        self.alpha = float(alpha)
        if not self.alpha > 0:
            raise ValueError(f"alpha must be > 0 (add-alpha smoothing), got {alpha}")
        corpus = [list(s) for s in corpus]
        if not corpus or not all(corpus):
            raise ValueError("corpus must be a non-empty list of non-empty sentences")
        self.words = sorted({w for s in corpus for w in s})
        self.index = {w: i for i, w in enumerate(self.words)}
        self.context_words = self.words + [PAD]
        self.context_index = {w: i for i, w in enumerate(self.context_words)}
        self.offsets = [d for d in range(-self.left, self.right + 1) if d != 0]
        v, c = len(self.words), len(self.context_words)
        self.unigram = np.zeros(v)
        self.counts = {d: np.zeros((v, c)) for d in self.offsets}  # [w, context word at offset d]
        for s in corpus:
            for i, w in enumerate(s):
                self.unigram[self.index[w]] += 1
                for d in self.offsets:
                    j = i + d
                    ctx = s[j] if 0 <= j < len(s) else PAD
                    self.counts[d][self.index[w], self.context_index[ctx]] += 1

    def log_scores(self, context):  # {offset: word} -> [V]
        """Return log P(w) + sum_d log P(context[d] at offset d | w) for every word w."""
        v, c = len(self.words), len(self.context_words)
        total = np.log((self.unigram + self.alpha) / (self.unigram.sum() + self.alpha * v))
        for d, word in context.items():
            if d not in self.counts:
                raise ValueError(f"context offsets must be among {self.offsets}, got {d}")
            col = self.context_index.get(word)
            hits = self.counts[d][:, col] if col is not None else np.zeros(v)
            total = total + np.log((hits + self.alpha) / (self.counts[d].sum(axis=1) + self.alpha * (c + 1)))
        return total

    def predict(self, context):  # {offset: word} -> [V] probabilities over self.words
        """Return the model's distribution over the hidden word, given the context it may read."""
        s = self.log_scores(context)
        e = np.exp(s - s.max())
        return e / e.sum()


def context_of(tokens, position, left=LEFT, right=RIGHT, sides="both"):  # -> {offset: word}
    """Return the words around position that the model may read: sides is 'none', 'left', 'right' or 'both'."""
    tokens = list(tokens)
    position = nonneg_int("position", position)
    if position >= len(tokens):
        raise ValueError(f"position must be < len(tokens)={len(tokens)}, got {position}")
    if sides not in ("none", "left", "right", "both"):
        raise ValueError(f"sides must be 'none', 'left', 'right' or 'both', got {sides!r}")
    ctx = {}
    if sides in ("left", "both"):
        for d in range(-left, 0):
            j = position + d
            ctx[d] = tokens[j] if j >= 0 else PAD
    if sides in ("right", "both"):
        for d in range(1, right + 1):
            j = position + d
            ctx[d] = tokens[j] if j < len(tokens) else PAD
    return ctx


def fill_mask(tokens=SENTENCE, position=MASKED_POSITION, sides="both", model=None, top=3):  # -> [(word, p)] * top
    """Return the model's top guesses for the hidden word at position, reading the given sides."""
    top = positive_int("top", top)
    model = model or ContextCounter()
    p = model.predict(context_of(tokens, position, model.left, model.right, sides))
    order = np.argsort(-p, kind="stable")[:top]
    return [(model.words[i], float(p[i])) for i in order]


def steps(tokens=SENTENCE, position=MASKED_POSITION, model=None):  # -> list of dicts
    """Return what the [MASK] position can draw on at each step: 0 nothing, 1 both sides, 2 resolved."""
    model = model or ContextCounter()
    tokens = list(tokens)
    prior = model.predict({})
    left = model.predict(context_of(tokens, position, model.left, model.right, "left"))
    both = model.predict(context_of(tokens, position, model.left, model.right, "both"))
    lo, hi = max(0, position - model.left), min(len(tokens), position + model.right + 1)
    reads = [j for j in range(lo, hi) if j != position]
    answer = model.words[int(np.argmax(both))]
    return [
        {"step": 0, "reads": [], "probs": prior, "left_probs": None, "filled": None},
        {"step": 1, "reads": reads, "probs": both, "left_probs": left, "filled": None},
        {"step": 2, "reads": reads, "probs": both, "left_probs": left, "filled": answer},
    ]


# ---- an encoder that learned masked-LM: chapter 7's training code, under the full mask --------------------------


def mask_rows(tokens, vocab, rate, seed, *, draws=1, boundary="."):  # [r, n] ids -> ([r * draws, n] ids, same float)
    """Hide a rate of each row's words with BERT's rule (mask_tokens), `draws` times; return the rows and loss weights.

    vocab must end with MASK. A row's boundary tokens are never picked (as BERT never picks [CLS] or
    [SEP]); a random replacement is a word of vocab other than MASK and the boundary. The weight is 1
    at each picked position (the loss counts it), 0 elsewhere.
    """
    tokens = np.atleast_2d(np.asarray(tokens))
    if not vocab or vocab[-1] != MASK:
        raise ValueError(f"vocab must end with {MASK!r}, the id of the hidden word")
    if not np.issubdtype(tokens.dtype, np.integer) or tokens.min() < 0 or tokens.max() >= len(vocab) - 1:
        raise ValueError(f"tokens must be integer ids of words in vocab other than {MASK!r}")
    draws = positive_int("draws", draws)
    words = [w for w in vocab[:-1] if w != boundary]
    row_seeds = np.random.default_rng(nonneg_int("seed", seed)).integers(2**32, size=draws * len(tokens))
    out, weights = np.repeat(tokens, draws, axis=0), np.zeros((draws * len(tokens), tokens.shape[1]))
    for r, row_seed in enumerate(row_seeds):
        places = [j for j, i in enumerate(out[r]) if vocab[i] != boundary]
        picks, shown = mask_tokens([vocab[out[r, j]] for j in places], rate, int(row_seed), words)
        for k, *_ in picks:
            out[r, places[k]] = vocab.index(shown[k])
            weights[r, places[k]] = 1.0
    return out, weights


def cloze(tokens, vocab, *, boundary="."):  # [r, n] ids -> ([m, n] ids, [m] rows, [m] positions)
    """Return one copy of the rows for each of their words with that word alone replaced by MASK (vocab's last id)."""
    tokens = np.atleast_2d(np.asarray(tokens))
    rows, positions = np.nonzero(tokens != vocab.index(boundary))
    inputs = tokens[rows].copy()
    inputs[np.arange(len(rows)), positions] = len(vocab) - 1
    return inputs, rows, positions


def hidden_probs(params, cfg, inputs, positions, mask):  # [m, n] ids, [m], [n, n] -> [m, vocab]
    """Return the model's distribution over the word at each input's hidden position, under mask."""
    z = decoder_forward(params, np.asarray(inputs), check_mask(mask, np.shape(inputs)[1]), cfg.n_heads)[0]
    z = z[np.arange(len(positions)), positions]
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

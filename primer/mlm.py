"""BERT's masked-LM objective: hide 15 % of the tokens, and guess each hidden one from both sides.

mask_tokens is BERT's rule on one sentence of words; mask_rows applies it to rows of token ids and
gives the loss weights that make primer.training's cross-entropy a masked-LM loss; cloze and
hidden_probs ask a trained model for one hidden word at a time (primer.experiments.trained_encoder).
"""

import numpy as np

from primer._checks import nonneg_int, positive_int
from primer.backprop_stack import decoder_forward
from primer.validate import validate_mask
from primer.vocab import MASK

# The sentence of the masked-LM figure, and the position it hides; used in chapters 6 (encoder) and 7 (decoder).
SENTENCE = ("the", "cat", "sat", "on", "the", "mat")
MASKED_POSITION = 2

# A longer sentence, so that 15 % of it is a whole number of tokens, and mask_tokens' default seed; used in chapter 6,
# whose draw (primer.inputs.encoder.MASKING_EXAMPLE_SEED) shows all three cases of the 80/10/10 rule.
LONG_SENTENCE = tuple(
    "the cat sat on the mat while the dog slept by the fire and the bird sang outside the window".split()
)
MASK_RATE = 0.15
MASK_SEED = 0


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
    out, loss_weights = np.repeat(tokens, draws, axis=0), np.zeros((draws * len(tokens), tokens.shape[1]))
    for r, row_seed in enumerate(row_seeds):
        places = [j for j, i in enumerate(out[r]) if vocab[i] != boundary]
        picks, shown = mask_tokens([vocab[out[r, j]] for j in places], rate, int(row_seed), words)
        for k, *_ in picks:
            out[r, places[k]] = vocab.index(shown[k])
            loss_weights[r, places[k]] = 1.0
    return out, loss_weights


def cloze(tokens, vocab, *, boundary="."):  # [r, n] ids -> ([m, n] ids, [m] rows, [m] positions)
    """Return one copy of the rows for each of their words with that word alone replaced by MASK (vocab's last id)."""
    tokens = np.atleast_2d(np.asarray(tokens))
    if boundary not in vocab or vocab[-1] != MASK:
        raise ValueError(f"vocab must hold the boundary {boundary!r} and end with {MASK!r}")
    rows, positions = np.nonzero(tokens != vocab.index(boundary))
    inputs = tokens[rows].copy()
    inputs[np.arange(len(rows)), positions] = len(vocab) - 1
    return inputs, rows, positions


def hidden_probs(params, cfg, inputs, positions, mask):  # [m, n] ids, [m], [n, n] -> [m, vocab]
    """Return the model's distribution over the word at each input's hidden position, under mask."""
    inputs, positions = np.atleast_2d(np.asarray(inputs)), np.asarray(positions)
    if positions.shape != (len(inputs),) or not np.issubdtype(positions.dtype, np.integer):
        raise ValueError(f"positions must be one integer per input row, shape ({len(inputs)},), got {positions.shape}")
    if positions.min() < 0 or positions.max() >= inputs.shape[1]:
        raise ValueError(
            f"positions must be in [0, {inputs.shape[1]}), got min {positions.min()}, max {positions.max()}"
        )
    z = decoder_forward(params, inputs, validate_mask(mask, inputs.shape[1]), cfg.n_heads)[0]
    z = z[np.arange(len(positions)), positions]
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)

"""The generation loop without a cache: predict the next token, append it, run the whole prefix again.

The model is primer's tiny decoder with random but seeded weights, so the text it produces is
gibberish: the loop, not the words, is the point.
"""

import numpy as np

from primer._checks import nonneg_int
from primer.transformer import check_tokens, decode

# A toy vocabulary of 32 words, one per token id of the default Config (vocab_size = 32).
TOY_VOCAB = ("BOS", "the", "a", "cat", "dog", "bird", "mat", "tree", "sat", "ran", "flew", "saw",
             "on", "under", "near", "and", "then", "it", "she", "he", "big", "small", "red", "old",
             "fast", "slowly", "today", "again", "home", "away", "here", ".")
TOY_SEED = 190           # the seed of the tiny decoder's weights on the chapter's pages
TOY_STEPS = 8            # how many tokens the loop generates on the page
TOY_PROMPT = (1, 3, 8)   # "the cat sat"


def words(tokens, vocab=TOY_VOCAB):  # [n] -> list of n strings
    """Return the words of token ids in a vocabulary."""
    tokens = np.asarray(tokens)
    if tokens.ndim != 1 or not np.issubdtype(tokens.dtype, np.integer) or (tokens.size and (tokens.min() < 0 or tokens.max() >= len(vocab))):
        raise ValueError(f"tokens must be a 1-D array of ids in [0, {len(vocab)}), got {tokens!r}")
    return [vocab[int(t)] for t in tokens]


def greedy(logits_row):  # [vocab] -> int
    """Return the id of the highest-scoring token (temperature 0)."""
    logits_row = np.asarray(logits_row, dtype=float)
    if logits_row.ndim != 1 or logits_row.size == 0:
        raise ValueError(f"logits_row must be a non-empty 1-D array, got shape {logits_row.shape}")
    return int(np.argmax(logits_row))


def next_token(tokens, params, cfg, ops=None):  # [n] -> (int, [vocab])
    """Run the decoder over the whole prefix and return the greedy next token and the last row's logits."""
    last = decode(tokens, params, cfg, ops=ops)[-1]
    return greedy(last), last


def generate_steps(prompt, params, cfg, n_new, ops=None):  # [n] -> list of n_new steps
    """Run the loop without a cache and record each step: the input it ran on, its logits, its choice."""
    tokens = list(check_tokens(prompt, cfg))
    n_new = nonneg_int("n_new", n_new)
    if len(tokens) + n_new - 1 > cfg.max_len:
        raise ValueError(f"len(prompt) + n_new - 1 must be <= max_len={cfg.max_len}, got {len(tokens) + n_new - 1}")
    steps = []
    for _ in range(n_new):
        inp = np.array(tokens)
        nxt, last = next_token(inp, params, cfg, ops)   # the whole prefix, every time
        steps.append({"input": inp, "logits": last, "next": nxt})
        tokens.append(nxt)                              # append, then run everything again
    return steps


def generate(prompt, params, cfg, n_new, ops=None):  # [n] -> [n + n_new]
    """Return the prompt followed by n_new greedy tokens, recomputing the whole prefix at every step."""
    steps = generate_steps(prompt, params, cfg, n_new, ops)
    return np.concatenate([np.asarray(prompt)] + [np.array([s["next"]]) for s in steps]).astype(int)

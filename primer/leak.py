"""The leak test: change a future token and see whether an earlier position's output moves.

Run the same stack of blocks, with the same seeded weights, as a decoder (causal mask) and as an
encoder (full mask, the decoder with its mask switched off). Under the causal mask every position
before the change must stay bit-identical; under the full mask it moves. token_reads runs it on every position at once,
and LeakProbes reads one mask the three ways Part IV's tables print.
"""

from dataclasses import dataclass

import numpy as np

from primer._checks import positive_int
from primer.attention import attention
from primer.layer_patterns import reachable
from primer.mask_checks import check_mask
from primer.probe import movement, nudge
from primer.rounding import BOUND
from primer.transformer import embed, init_stack, logits, stack
from primer.transformer import run_machine as run
from primer.vocab import to_ids


@dataclass(frozen=True)
class LeakResult:
    """Per-position max |Δ| of the logits when one token changes, with and without the mask."""

    position: int  # where the token was changed
    delta_masked: np.ndarray  # [n]
    delta_unmasked: np.ndarray  # [n]

    @property
    def earlier_masked(self):
        """Return the largest |Δ| at positions before the change, with the causal mask."""
        return float(self.delta_masked[: self.position].max()) if self.position else 0.0

    @property
    def earlier_unmasked(self):
        """Return the largest |Δ| at positions before the change, with a full mask."""
        return float(self.delta_unmasked[: self.position].max()) if self.position else 0.0


def leak_test(tokens, position, new_token, params, cfg):  # [n], int, int -> LeakResult
    """Change tokens[position] to new_token; return how far each position's logits moved, per mask."""
    tokens = np.asarray(tokens)
    if tokens.ndim != 1 or not np.issubdtype(tokens.dtype, np.integer):
        raise ValueError(f"tokens must be a 1-D array of integer ids, got shape {tokens.shape}, dtype {tokens.dtype}")
    if not (isinstance(position, (int, np.integer)) and 0 <= position < len(tokens)):
        raise ValueError(f"position must be an index into tokens (0 .. {len(tokens) - 1}), got {position!r}")
    if new_token == tokens[position]:
        raise ValueError(f"new_token must differ from tokens[position]={tokens[position]}, or nothing changes")
    changed = tokens.copy()
    changed[position] = new_token
    deltas = [
        movement(lambda t, machine=machine: logits(run(machine, t, params, cfg), params), tokens, [changed])[:, 0]
        for machine in ("decoder", "encoder")
    ]
    return LeakResult(int(position), deltas[0], deltas[1])


def word_leak_test(words, position, word, vocab, cfg, seed):  # -> (words, changed words, LeakResult)
    """Run the leak test on a sentence: words[position] becomes word, with seeded tiny weights."""
    params = init_stack(seed, cfg)
    words = list(words)
    changed = list(words)
    changed[position] = word
    result = leak_test(to_ids(words, vocab), position, int(to_ids([word], vocab)[0]), params, cfg)
    return words, changed, result


def token_reads(read, tokens, vocab_size):  # read: [n] ids -> [n, ...]; tokens [n] -> [n, n] bool
    """Return which outputs each token moves, changed alone: reads[i, j] when output i moves beyond rounding with j.

    The leak test on every position at once: compare it with the mask the model should follow (True: may read).
    """
    tokens = np.asarray(tokens)
    if tokens.ndim != 1 or tokens.size == 0 or not np.issubdtype(tokens.dtype, np.integer):
        raise ValueError(f"tokens must be a non-empty 1-D array of integer ids, got shape {tokens.shape}")
    variants = [nudge(tokens, j, vocab_size) for j in range(tokens.size)]
    return movement(read, tokens, variants) >= BOUND


class LeakProbes:
    """Read a mask three ways, as chapters 15-17's leak tables do: a trained decoder under it, what the decoder's layers
    reach through it, and one attention head drawn at an initial scale (for chapter 14's check_mask)."""

    def __init__(self, params, cfg, d, seed):  # params, cfg: a trained decoder; the head: d x d, seeded
        self.params, self.cfg = params, cfg
        self.d = d = positive_int("d", d)
        rng = np.random.default_rng(seed)
        self.w_q, self.w_k, self.w_v = (rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3))  # initial scale

    def read(self, mask):  # mask [n, n] -> (token ids [n] -> logits [n, vocab])
        """Return the decoder under mask, as a function of its tokens."""
        return lambda t: logits(stack(embed(t, self.params, self.cfg), self.params, self.cfg, mask)[0], self.params)

    def reach(self, mask):  # [n, n] -> [n, n] bool
        """Return what each output may depend on through the decoder's cfg.n_layers layers, each under mask."""
        return reachable([mask] * self.cfg.n_layers)

    def head(self, mask):  # mask [n, n] -> (x [n, d] -> y [n, d])
        """Return the head under mask, as a function of its rows."""
        return lambda x: attention(x @ self.w_q, x @ self.w_k, x @ self.w_v, mask)[0]

    def row(self, case, tokens, meant, used):  # -> (case, reads [n, n], reach [n, n], problems)
        """Return a leak table's row: the decoder on tokens and the head, both under used, against the mask meant."""
        reads = token_reads(self.read(used), tokens, self.cfg.vocab_size)
        return case, reads, self.reach(meant), check_mask(self.head(used), meant, d=self.d)

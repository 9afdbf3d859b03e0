"""The leak test: change a future token and see whether an earlier position's output moves.

Run the same stack of blocks, with the same seeded weights, under two masks: the causal mask
(transformer.decode) and a full mask (the decoder with its mask switched off). Under the causal
mask every position before the change must stay bit-identical; under the full mask it moves.
"""

from dataclasses import dataclass

import numpy as np

from primer import mlm
from primer.masks import causal_mask, full_mask
from primer.transformer import Config, decode, embed, init_stack, logits, stack

CFG = Config(vocab_size=len(mlm.VOCAB))
SEED = 0
SENTENCE = mlm.SENTENCE                     # the cat sat on the mat
CHANGED_POSITION, CHANGED_WORD = 5, "rug"   # the cat sat on the rug


def run(tokens, params, cfg, masked=True):  # [n] -> [n, vocab]
    """Return the logits of the stack under the causal mask (masked=True) or a full mask."""
    if masked:
        return decode(tokens, params, cfg)
    x = embed(tokens, params, cfg)
    h, _ = stack(x, params, cfg, full_mask(len(x)))
    return logits(h, params)


@dataclass(frozen=True)
class LeakResult:
    """Per-position max |Δ| of the logits when one token changes, with and without the mask."""

    position: int              # where the token was changed
    delta_masked: np.ndarray   # [n]
    delta_unmasked: np.ndarray  # [n]

    @property
    def earlier_masked(self):
        """Return the largest |Δ| at positions before the change, with the causal mask."""
        return float(self.delta_masked[:self.position].max()) if self.position else 0.0

    @property
    def earlier_unmasked(self):
        """Return the largest |Δ| at positions before the change, with a full mask."""
        return float(self.delta_unmasked[:self.position].max()) if self.position else 0.0


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
    deltas = []
    for masked in (True, False):
        a, b = run(tokens, params, cfg, masked), run(changed, params, cfg, masked)
        deltas.append(np.abs(a - b).max(axis=-1))
    return LeakResult(int(position), deltas[0], deltas[1])


def experiment(seed=SEED, cfg=CFG):  # -> (words, changed words, LeakResult)
    """Run the page's leak test: 'the cat sat on the mat' vs '... the rug', seeded tiny weights."""
    params = init_stack(seed, cfg)
    words = list(SENTENCE)
    changed = list(words)
    changed[CHANGED_POSITION] = CHANGED_WORD
    result = leak_test(mlm.ids(words), CHANGED_POSITION, int(mlm.ids([CHANGED_WORD])[0]), params, cfg)
    return words, changed, result


def visible(n, masked=True):  # -> [n, n] bool
    """Return the self-attention mask of the experiment: causal when masked, else full."""
    return causal_mask(n) if masked else full_mask(n)

"""The dependence probe: change one input, run again, and measure how far each output row moved.

What a mask allows is a claim; this is the measurement. An output that cannot read input j gives
it weight exp(-inf) = 0, so in exact arithmetic it does not move at all when j changes; on a
computer it moves by rounding at most (primer.rounding: below 1e-12), because a BLAS may order the
same sums differently, e.g. when a variant is one row longer. What can read j moves visibly.
"""

import numpy as np

from primer._checks import nonneg_int, positive_int
from primer.machines import validate_machine
from primer.transformer import init_stack, logits, run_machine


def nudge(tokens, j, vocab_size):  # [n] -> [n]
    """Return a copy of tokens whose id at position j is replaced by the next id (mod vocab_size)."""
    tokens = np.array(tokens, copy=True)
    if tokens.ndim != 1 or not np.issubdtype(tokens.dtype, np.integer):
        raise ValueError(f"tokens must be a 1-D array of integer ids, got shape {tokens.shape}, dtype {tokens.dtype}")
    j, vocab_size = nonneg_int("j", j), positive_int("vocab_size", vocab_size)
    if j >= tokens.size:
        raise ValueError(f"j must be a position in tokens (0 .. {tokens.size - 1}), got {j}")
    tokens[j] = (tokens[j] + 1) % vocab_size
    return tokens


def movement(run, base, variants):  # run: input -> [n, ...]; -> [n, len(variants)]
    """Return, for each variant input, how far each output row of run moves from run(base): max |Δ| over the row.

    Rows come first in run's output. A variant may be longer than base (a token appended): only
    base's n rows are compared, so column v says how far the old outputs drifted.
    """
    out = np.asarray(run(base), dtype=float)
    if out.ndim == 0:
        raise ValueError("run must return an array whose first axis is the output rows, got a scalar")
    columns = []
    for variant in variants:
        moved = np.asarray(run(variant), dtype=float)
        if moved.shape[0] < out.shape[0] or moved.shape[1:] != out.shape[1:]:
            raise ValueError(f"run(variant) must keep base's rows {out.shape}, got shape {moved.shape}")
        columns.append(np.abs(moved[: len(out)] - out).reshape(len(out), -1).max(axis=1))
    if not columns:
        raise ValueError("variants must hold at least one changed input")
    return np.stack(columns, axis=1)


def run_seeded(machine, tokens, cfg, seeds, source=None):  # [n], [m] -> [n, ...]
    """Run a machine with seeded weights: the encoder's hidden states, a decoder's logits.

    seeds is (encoder seed, decoder seed); the encoder-decoder reads source through its encoder.
    """
    enc_seed, dec_seed = seeds
    if validate_machine(machine) == "encoder":
        return run_machine("encoder", tokens, init_stack(enc_seed, cfg), cfg)
    if machine == "decoder":
        params = init_stack(dec_seed, cfg)
        return logits(run_machine("decoder", tokens, params, cfg), params)
    if source is None:
        raise ValueError("source is required for the encoder-decoder")
    enc_out = run_machine("encoder", source, init_stack(enc_seed, cfg), cfg)
    params = init_stack(dec_seed, cfg, cross=True)
    return logits(run_machine("encoder-decoder", tokens, params, cfg, enc_out), params)


def influence(machine, tokens, source, cfg, seeds):  # -> ([n, n], [n, m] or None)
    """Measure what each output of a seeded machine reads: change one input token, record how far each output moves.

    Returns (own[i, j], src[i, j]): the largest change in output row i when token j of the
    sequence (own) or of the source (src; None unless encoder-decoder) is replaced by another id.
    """
    tokens = np.asarray(tokens)
    source = np.asarray(source) if validate_machine(machine) == "encoder-decoder" else None
    own = movement(
        lambda t: run_seeded(machine, t, cfg, seeds, source),
        tokens,
        [nudge(tokens, j, cfg.vocab_size) for j in range(len(tokens))],
    )
    if source is None:
        return own, None
    src = movement(
        lambda s: run_seeded(machine, tokens, cfg, seeds, s),
        source,
        [nudge(source, j, cfg.vocab_size) for j in range(len(source))],
    )
    return own, src

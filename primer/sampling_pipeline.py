"""The seven stages from text to the next token, run end to end on a toy character vocabulary.

tokenize -> embed -> N masked blocks -> final norm -> logits -> sample -> loop. The weights
are random but seeded (primer.transformer.init_stack): the arrays are real, the text they
produce is gibberish. Only stage 3's masks differ between an encoder, a decoder and an
encoder-decoder; every other stage and every weight is shared.
"""

from dataclasses import dataclass

import numpy as np

from primer._checks import nonneg_int
from primer.config import Config
from primer.decoding import generate
from primer.machines import machine_masks, validate_machine
from primer.probe import movement, nudge
from primer.rounding import BOUND
from primer.transformer import embed, encode, init_stack, layer_norm, logits, stack

# The toy character vocabulary (one id per character, 32 of them) and the tiny model over it.
VOCAB = " abcdefghijklmnopqrstuvwxyz.,!?'"
CFG = Config(vocab_size=len(VOCAB), d_model=16, n_heads=4, d_ff=32, n_layers=2, max_len=64)
STAGES = ("tokenize", "embed", "blocks", "final_norm", "logits", "sample", "loop")


def tokenize(text):  # str -> [n]
    """Return one id per character of text; a character outside VOCAB raises."""
    if not isinstance(text, str) or not text:
        raise ValueError(f"text must be a non-empty string, got {text!r}")
    bad = sorted({c for c in text if c not in VOCAB})
    if bad:
        raise ValueError(f"text has characters outside the toy vocabulary {VOCAB!r}: {bad}")
    return np.array([VOCAB.index(c) for c in text])


def detokenize(ids):  # [n] -> str
    """Return the characters of ids."""
    ids = np.asarray(ids)
    if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer) or np.any(ids < 0) or np.any(ids >= len(VOCAB)):
        raise ValueError(f"ids must be a 1-D array of integers in [0, {len(VOCAB)})")
    return "".join(VOCAB[i] for i in ids)


def shared_weights(seed, cfg=CFG):
    """Return the one set of weights all three machines use (blocks carry a cross-attention sub-layer)."""
    return init_stack(nonneg_int("seed", seed), cfg, cross=True)


def source_enc_out(text, seed, cfg=CFG):  # str -> [m, d]
    """Return a separate, seeded encoder's output for text: the enc_out an encoder-decoder reads."""
    return encode(tokenize(text), init_stack(nonneg_int("seed", seed), cfg), cfg)


def blocks(x, params, cfg, self_mask, enc_out=None, cross_mask=None):  # [n, d] -> [n, d]
    """Run stage 3: every block under the same masks, without the final norm."""
    return stack(x, params, cfg, self_mask, enc_out=enc_out, cross_mask=cross_mask, final_norm=False)[0]


def forward(tokens, params, cfg, machine="decoder", enc_out=None):  # [n] -> dict of stage arrays
    """Run stages 2-5 on token ids and return each stage's output, keyed by stage name."""
    x = embed(tokens, params, cfg)
    if validate_machine(machine) == "encoder-decoder" and enc_out is None:
        raise ValueError("enc_out (the encoder's output) is required for machine='encoder-decoder'")
    if machine != "encoder-decoder" and enc_out is not None:
        raise ValueError(f"enc_out is read only by machine='encoder-decoder', got machine={machine!r}")
    self_mask, cross_mask = machine_masks(machine, len(x), None if enc_out is None else np.shape(enc_out)[0])
    h = blocks(x, params, cfg, self_mask, enc_out, cross_mask)
    h_norm = layer_norm(h, params["ln_f"])
    return {"embed": x, "blocks": h, "final_norm": h_norm, "logits": logits(h_norm, params)}


@dataclass(frozen=True, eq=False)
class Stage:
    """One stage's name and the array it produced."""

    name: str
    array: np.ndarray


def run(text, params, *, n_new, temperature, seed, greedy=False, cfg=CFG):
    """Run the seven stages on text with a decoder, recording every stage; return (stages, generated text).

    Stages 1-6 are recorded for the first step; stage 7 (loop) is the [n_new + 1, n_total] grid
    of ids the loop holds before each step, -1 where nothing is written yet. The loop recomputes
    everything each step (no cache).
    """
    n_new = nonneg_int("n_new", n_new)
    rng = np.random.default_rng(nonneg_int("seed", seed))
    ids = tokenize(text)
    if ids.size + n_new > cfg.max_len:
        raise ValueError(f"len(text) + n_new must be <= max_len={cfg.max_len}, got {ids.size + n_new}")
    # one token more than kept: the first choice is stage 6's, the last one is drawn and dropped
    out = generate(ids, params, cfg, n_new + 1, greedy=greedy, temperature=temperature, rng=rng)
    first = forward(ids, params, cfg, "decoder")
    stages = [Stage("tokenize", ids.copy())] + [Stage(k, first[k]) for k in ("embed", "blocks", "final_norm", "logits")]
    stages.append(Stage("sample", out[ids.size : ids.size + 1]))
    grid = np.full((n_new + 1, ids.size + n_new), -1)
    for k in range(n_new + 1):
        grid[k, : ids.size + k] = out[: ids.size + k]
    stages.append(Stage("loop", grid))
    return stages, detokenize(out[: ids.size + n_new])


def dependence(text, machine, source, params, encoder_seed, cfg=CFG):  # -> [n, n + m] bool
    """Return which inputs each output position's logits depend on, found by changing one input at a time.

    Columns are the n characters of text, then the m characters of source (the encoder's input,
    read only by the encoder-decoder, whose encoder has seeded weights). Cell [i, j] is True if
    changing input j moves output i.
    """
    ids, src = tokenize(text), tokenize(source)
    enc_out = source_enc_out(source, encoder_seed, cfg) if validate_machine(machine) == "encoder-decoder" else None
    own = movement(
        lambda t: forward(t, params, cfg, machine, enc_out)["logits"],
        ids,
        [nudge(ids, j, cfg.vocab_size) for j in range(ids.size)],
    )
    if enc_out is None:
        return np.concatenate([own > BOUND, np.zeros((ids.size, src.size), bool)], axis=1)
    cross = movement(
        lambda s: forward(ids, params, cfg, machine, source_enc_out(detokenize(s), encoder_seed, cfg))["logits"],
        src,
        [nudge(src, j, cfg.vocab_size) for j in range(src.size)],
    )
    return np.concatenate([own, cross], axis=1) > BOUND

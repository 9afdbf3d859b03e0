"""The three machines: which mask each one uses (the one place that decides it) and which one an output needs.

A machine is the block of primer.transformer under one setting of the mask knob: full (encoder),
causal (decoder), causal plus a full cross rectangle over the source (encoder-decoder).
mask[i, j] True: query i may read key j.
"""

from dataclasses import dataclass

import numpy as np

from primer._checks import nonneg_int, positive_int
from primer.masks import causal_mask, full_mask

MACHINES = ("encoder", "decoder", "encoder-decoder")


def validate_machine(machine):  # str -> str
    """Return machine, or raise unless it is one of MACHINES."""
    if machine not in MACHINES:
        raise ValueError(f"machine must be one of {MACHINES}, got {machine!r}")
    return machine


def machine_masks(machine, n, m=None, *, past=0):  # -> ([n, past + n], [n, m] or None)
    """Return (self mask, cross mask) of a machine whose n new positions follow `past` cached ones and read m sources.

    The cross mask is None when the machine has no cross-attention. Only a causal self mask can
    follow cached positions: under a full mask a new token would change the old rows.
    """
    validate_machine(machine)
    n, past = positive_int("n", n), nonneg_int("past", past)
    if machine == "encoder":
        if past:
            raise ValueError(
                f"past must be 0 for the encoder (a full mask lets new tokens change old rows), got {past}"
            )
        return full_mask(n), None
    self_mask = causal_mask(n, past + n)  # the new rows are the last n of past + n
    if machine == "decoder":
        return self_mask, None
    if m is None:
        raise ValueError("m (the number of source positions) is required for the encoder-decoder")
    return self_mask, full_mask(n, positive_int("m", m))


def stack_masks(machine, n_src, n_tgt):  # -> ([m, m] or None, [n, n] or None, [n, m] or None)
    """Return the masks a machine's stacks use: (encoder self, decoder self, cross); None where absent.

    The encoder reads the n_src input positions; a decoder writes n_tgt positions.
    """
    validate_machine(machine)
    n_src, n_tgt = positive_int("n_src", n_src), positive_int("n_tgt", n_tgt)
    enc = machine_masks("encoder", n_src)[0] if machine != "decoder" else None
    dec, cross = machine_masks(machine, n_tgt, n_src) if machine != "encoder" else (None, None)
    return enc, dec, cross


def reach(machine, n, m):  # -> [n, n + m]
    """Return a machine's masks side by side: the self mask over n positions, the cross mask over m (False if none)."""
    self_mask, cross_mask = machine_masks(machine, n, positive_int("m", m))
    return np.concatenate([self_mask, np.zeros((n, m), bool) if cross_mask is None else cross_mask], axis=1)


# ---- which machine an output needs ----------------------------------------------------------------

OUTPUTS = ("label", "span", "text", "translation")

# Two questions decide it: is the output new tokens written one by one, and do those tokens read
# a separate, complete input (another language, another modality)?
_QUESTIONS = {
    "label": (False, False),  # one class for the whole input
    "span": (False, False),  # a start and an end position inside the input
    "text": (True, False),  # a continuation of the input, token by token
    "translation": (True, True),  # new tokens that read a whole sentence of another language
}

EXAMPLE_MODEL = {"encoder": "BERT-base", "decoder": "GPT-1", "encoder-decoder": "T5-base"}


@dataclass(frozen=True)
class Choice:
    """The architecture an output calls for, and the two answers that chose it."""

    output: str
    writes_tokens: bool
    reads_separate_input: bool
    machine: str
    example: str


def machine_for(writes_tokens, reads_separate_input):  # bool, bool -> str
    """Return the machine: nothing written -> encoder; written from another input -> encoder-decoder; else decoder."""
    for name, value in (("writes_tokens", writes_tokens), ("reads_separate_input", reads_separate_input)):
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be True or False, got {value!r}")
    if not writes_tokens:
        return "encoder"
    return "encoder-decoder" if reads_separate_input else "decoder"


def architecture_for(output):  # str -> Choice
    """Return the architecture an output of this shape calls for (one of OUTPUTS)."""
    if output not in _QUESTIONS:
        raise ValueError(f"output must be one of {OUTPUTS}, got {output!r}")
    writes, separate = _QUESTIONS[output]
    machine = machine_for(writes, separate)
    return Choice(output, writes, separate, machine, EXAMPLE_MODEL[machine])

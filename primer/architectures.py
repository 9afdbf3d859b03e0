"""The three machines one block makes, and which one an output needs (published models: primer.models).

A machine is the block of primer.transformer under one setting of the mask knob: no mask
(encoder), causal (decoder), causal plus a full cross rectangle (encoder-decoder).
"""

from dataclasses import dataclass

import numpy as np

from primer.config import Config
from primer.counts import count_params
from primer.machines import check_machine
from primer.machines import run as run_machine
from primer.models import model
from primer.probe import movement, nudge
from primer.transformer import init_stack, logits

# ---- the same block, really run -----------------------------------------------------------------

# The tiny seeded model and the inputs of the perturbation experiment (chapter 9's page inputs, to move to primer.pages).
TINY = Config()
TARGET = np.array([3, 14, 15, 9, 26])   # the sequence each machine reads (and, for a decoder, writes)
SOURCE = np.array([27, 18, 28, 1])      # the encoder-decoder's input, read through cross-attention
SEED_ENCODER, SEED_DECODER = 2017, 2018


def run(machine, tokens, source=None):  # [n], [m] -> [n, ...]
    """Run a machine on tokens (and, for the encoder-decoder, a source): the encoder's hidden states, a decoder's logits.

    Used in chapter 9 (choosing).
    """
    if check_machine(machine) == "encoder":
        return run_machine("encoder", tokens, init_stack(SEED_ENCODER, TINY), TINY)
    if machine == "decoder":
        params = init_stack(SEED_DECODER, TINY)
        return logits(run_machine("decoder", tokens, params, TINY), params)
    if source is None:
        raise ValueError("source is required for the encoder-decoder")
    memory = run_machine("encoder", source, init_stack(SEED_ENCODER, TINY), TINY)
    params = init_stack(SEED_DECODER, TINY, cross=True)
    return logits(run_machine("encoder-decoder", tokens, params, TINY, memory), params)


def influence(machine, tokens=TARGET, source=SOURCE):  # -> ([n, n], [n, m] or None)
    """Measure what each output reads: change one input token, record how far every output row moves.

    Returns (own[i, j], src[i, j]): the largest change in output row i when token j of the
    sequence (own) or of the source (src; None unless encoder-decoder) is replaced by another id.
    Used in chapter 9 (choosing).
    """
    tokens = np.asarray(tokens)
    source = np.asarray(source) if check_machine(machine) == "encoder-decoder" else None
    own = movement(lambda t: run(machine, t, source), tokens, [nudge(tokens, j, TINY.vocab_size) for j in range(len(tokens))])
    if source is None:
        return own, None
    src = movement(lambda s: run(machine, tokens, s), source, [nudge(source, j, TINY.vocab_size) for j in range(len(source))])
    return own, src


# ---- which machine an output needs ----------------------------------------------------------------

OUTPUTS = ("label", "span", "text", "translation")

# Two questions decide it: is the output new tokens written one by one, and do those tokens read
# a separate, complete input (another language, another modality)?
_QUESTIONS = {
    "label": (False, False),        # one class for the whole input
    "span": (False, False),         # a start and an end position inside the input
    "text": (True, False),          # a continuation of the input, token by token
    "translation": (True, True),    # new tokens that read a whole sentence of another language
}

EXAMPLE_MODEL = {"encoder": "BERT-base", "decoder": "GPT-1", "encoder-decoder": "T5-base"}


@dataclass(frozen=True)
class Choice:
    """The architecture an output calls for, and the two answers that chose it. Used in chapter 9 (choosing)."""

    output: str
    writes_tokens: bool
    reads_separate_input: bool
    machine: str
    example: str


def machine_for(writes_tokens, reads_separate_input):  # bool, bool -> str
    """Return the machine: nothing written -> encoder; written from a separate input -> encoder-decoder; else decoder.

    Used in chapter 9 (choosing).
    """
    for name, value in (("writes_tokens", writes_tokens), ("reads_separate_input", reads_separate_input)):
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be True or False, got {value!r}")
    if not writes_tokens:
        return "encoder"
    return "encoder-decoder" if reads_separate_input else "decoder"


def architecture_for(output):  # str -> Choice
    """Return the architecture an output of this shape calls for (one of OUTPUTS). Used in chapter 9 (choosing)."""
    if output not in _QUESTIONS:
        raise ValueError(f"output must be one of {OUTPUTS}, got {output!r}")
    writes, separate = _QUESTIONS[output]
    machine = machine_for(writes, separate)
    return Choice(output, writes, separate, machine, EXAMPLE_MODEL[machine])


# ---- one size, opposite masks ---------------------------------------------------------------------

SAME_SIZE = ("BERT-base", "GPT-1")   # one encoder and one decoder of the same shape; used in chapter 7 (decoder)


def same_size(names=SAME_SIZE):  # -> list of dicts
    """Return each published model's shape, the weights inside its blocks and its self-attention mask.

    The weights inside the blocks are attention, feed-forward and their biases, counted from the
    published shape (primer.counts); embeddings, norms and heads are left out. Used in chapter 7 (decoder).
    """
    if isinstance(names, str) or not names:
        raise ValueError(f"names must be a non-empty sequence of model names, got {names!r}")
    rows = []
    for name in names:
        m = model(name)
        if m.machine == "encoder-decoder":
            raise ValueError(f"names must name encoders or decoders (one stack), got {name!r}")
        parts = count_params(m.config, m.machine)
        c = m.config
        rows.append({"name": name, "machine": m.machine, "n_layers": c.n_layers, "d_model": c.d_model,
                     "n_heads": c.n_heads, "d_ff": c.d_ff,
                     "block_weights": parts["attention"] + parts["feed_forward"] + parts["biases"],
                     "mask": "full" if m.machine == "encoder" else "causal", "source": m.source})
    return rows

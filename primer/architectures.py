"""The three machines one block makes, three published models of them, and which one an output needs.

A machine is the block of primer.transformer under one setting of the mask knob: no mask
(encoder), causal (decoder), causal plus a full cross rectangle (encoder-decoder).
"""

from dataclasses import dataclass

import numpy as np

from primer._checks import positive_int
from primer.masks import causal_mask, full_mask
from primer.params import Shape, count_params, relative_difference
from primer.transformer import Config, decode, encode, init_stack

MACHINES = ("encoder", "decoder", "encoder-decoder")

# ---- published shapes -------------------------------------------------------------------------

# BERT-base (Devlin et al., 2019, §3): post-norm encoder, LayerNorm after the embeddings, a pooler
# on [CLS]; WordPiece vocabulary of 30,522, 512 learned positions, 2 segment types.
BERT_BASE = Shape("BERT-base", encoder_layers=12, decoder_layers=0, d_model=768, n_heads=12, d_ff=3072,
                  vocab_size=30522, max_positions=512, segment_types=2, embedding_norm=True, pooler=True)

# GPT-1 (Radford et al., 2018, §4.1): post-norm decoder with masked self-attention; BPE vocabulary
# of 40,478 in the released code (40,000 merges), 512 learned positions, output tied to the embeddings.
GPT_1 = Shape("GPT-1", encoder_layers=0, decoder_layers=12, d_model=768, n_heads=12, d_ff=3072,
              vocab_size=40478, max_positions=512)

# T5-base (Raffel et al., 2020, §3.1.1): pre-norm encoder-decoder, no biases in dense layers, scale-only
# norms, a final norm per stack, 32 relative-position buckets per head and stack, one embedding
# matrix of 32,128 rows shared by encoder input, decoder input and the output layer.
T5_BASE = Shape("T5-base", encoder_layers=12, decoder_layers=12, d_model=768, n_heads=12, d_ff=3072,
                vocab_size=32128, relative_buckets=32, dense_bias=False, norm_bias=False, final_norm=True)

MODELS = {shape.name: shape for shape in (BERT_BASE, GPT_1, T5_BASE)}

# The rounded totals the authors published, and where.
PUBLISHED = {
    "BERT-base": (110_000_000, "Devlin et al., 2019, §3"),
    "GPT-1": (117_000_000, "Radford et al., 2019 (GPT-2), Table 2"),
    "T5-base": (220_000_000, "Raffel et al., 2020, §3.1.1"),
}


def model(name):  # str -> Shape
    """Return the published shape of a model in MODELS."""
    if name not in MODELS:
        raise ValueError(f"name must be one of {tuple(MODELS)}, got {name!r}")
    return MODELS[name]


def summary(name):  # str -> dict
    """Return a model's shape, its parameters part by part, the total, the published total and the relative difference."""
    shape = model(name)
    parts = count_params(shape)
    total = sum(parts.values())
    published, source = PUBLISHED[name]
    return {"name": name, "shape": shape, "parts": parts, "total": total, "published": published,
            "source": source, "difference": relative_difference(total, published)}


# ---- the knob: masks of each machine -------------------------------------------------------------

def masks(machine, n, m=None):  # -> ([n, n], [n, m] or None)
    """Return (self mask, cross mask) of a machine over n positions, reading m source positions.

    The cross mask is None when the machine has no cross-attention.
    """
    if machine not in MACHINES:
        raise ValueError(f"machine must be one of {MACHINES}, got {machine!r}")
    n = positive_int("n", n)
    if machine == "encoder":
        return full_mask(n), None
    if machine == "decoder":
        return causal_mask(n), None
    if m is None:
        raise ValueError("m (the number of source positions) is required for the encoder-decoder")
    return causal_mask(n), full_mask(n, positive_int("m", m))


def stack_masks(machine, n_src, n_tgt):  # -> ([m, m] or None, [n, n] or None, [n, m] or None)
    """Return the masks a machine's stacks use: (encoder self, decoder self, cross); None where absent.

    The encoder reads the n_src input positions; a decoder writes n_tgt positions.
    """
    if machine not in MACHINES:
        raise ValueError(f"machine must be one of {MACHINES}, got {machine!r}")
    n_src, n_tgt = positive_int("n_src", n_src), positive_int("n_tgt", n_tgt)
    enc = full_mask(n_src) if machine != "decoder" else None
    dec = causal_mask(n_tgt) if machine != "encoder" else None
    cross = full_mask(n_tgt, n_src) if machine == "encoder-decoder" else None
    return enc, dec, cross


# ---- the same block, really run -----------------------------------------------------------------

# The tiny seeded model and the inputs of the perturbation experiment.
TINY = Config()
TARGET = np.array([3, 14, 15, 9, 26])   # the sequence each machine reads (and, for a decoder, writes)
SOURCE = np.array([27, 18, 28, 1])      # the encoder-decoder's input, read through cross-attention
SEED_ENCODER, SEED_DECODER = 2017, 2018


def run(machine, tokens, source=None):  # [n], [m] -> [n, ...]
    """Run a machine of primer.transformer on tokens (and, for the encoder-decoder, a source) and return its output."""
    if machine not in MACHINES:
        raise ValueError(f"machine must be one of {MACHINES}, got {machine!r}")
    if machine == "encoder":
        return encode(tokens, init_stack(SEED_ENCODER, TINY), TINY)
    if machine == "decoder":
        return decode(tokens, init_stack(SEED_DECODER, TINY), TINY)
    if source is None:
        raise ValueError("source is required for the encoder-decoder")
    memory = encode(source, init_stack(SEED_ENCODER, TINY), TINY)
    return decode(tokens, init_stack(SEED_DECODER, TINY, cross=True), TINY, memory=memory)


def _nudge(tokens, j):
    changed = np.array(tokens, copy=True)
    changed[j] = (changed[j] + 1) % TINY.vocab_size
    return changed


def influence(machine, tokens=TARGET, source=SOURCE):  # -> ([n, n], [n, m] or None)
    """Measure what each output reads: change one input token, record how far every output row moves.

    Returns (own[i, j], src[i, j]): the largest change in output row i when token j of the
    sequence (own) or of the source (src; None unless encoder-decoder) is replaced by another id.
    """
    tokens = np.asarray(tokens)
    source = np.asarray(source) if machine == "encoder-decoder" else None
    base = run(machine, tokens, source)
    own = np.stack([np.abs(run(machine, _nudge(tokens, j), source) - base).max(axis=-1)
                    for j in range(len(tokens))], axis=1)
    if source is None:
        return own, None
    src = np.stack([np.abs(run(machine, tokens, _nudge(source, j)) - base).max(axis=-1)
                    for j in range(len(source))], axis=1)
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
    """The architecture an output calls for, and the two answers that chose it."""

    output: str
    writes_tokens: bool
    reads_separate_input: bool
    machine: str
    example: str


def machine_for(writes_tokens, reads_separate_input):  # bool, bool -> str
    """Return the machine: nothing written -> encoder; written from a separate input -> encoder-decoder; else decoder."""
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

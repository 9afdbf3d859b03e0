"""The seven stages from text to the next token, run end to end on a toy character vocabulary.

tokenize -> embed -> N masked blocks -> final norm -> logits -> sample -> loop. The weights
are random but seeded (primer.transformer.init_stack): the arrays are real, the text they
produce is gibberish. Only stage 3's masks differ between an encoder, a decoder and an
encoder-decoder; every other stage and every weight is shared.
"""

from dataclasses import dataclass

import numpy as np

from primer._checks import float_array, nonneg_int, positive_int
from primer.decoding import generate
from primer.machines import check_machine, masks
from primer.pages import sampling_pipeline as page
from primer.pages import today
from primer.probe import movement, nudge
from primer.rounding import BOUND
from primer.counts import count_weights
from primer.transformer import embed, encode, init_stack, layer_norm, logits, stack

VOCAB, CFG = page.VOCAB, page.CFG   # the toy character vocabulary and model every function here defaults to
STAGES = ("tokenize", "embed", "blocks", "final_norm", "logits", "sample", "loop")   # Used in chapter 12.


def tokenize(text):  # str -> [n]
    """Return one id per character of text; a character outside VOCAB raises. Used in chapters 12 and 13."""
    if not isinstance(text, str) or not text:
        raise ValueError(f"text must be a non-empty string, got {text!r}")
    bad = sorted({c for c in text if c not in VOCAB})
    if bad:
        raise ValueError(f"text has characters outside the toy vocabulary {VOCAB!r}: {bad}")
    return np.array([VOCAB.index(c) for c in text])


def detokenize(ids):  # [n] -> str
    """Return the characters of ids. Used in chapters 12 and 13."""
    ids = np.asarray(ids)
    if ids.ndim != 1 or not np.issubdtype(ids.dtype, np.integer) or np.any(ids < 0) or np.any(ids >= len(VOCAB)):
        raise ValueError(f"ids must be a 1-D array of integers in [0, {len(VOCAB)})")
    return "".join(VOCAB[i] for i in ids)


def shared_weights(seed=page.SEED, cfg=CFG):
    """Return the one set of weights all three machines use (blocks carry a cross-attention sub-layer). Used in chapters 12, 13."""
    return init_stack(nonneg_int("seed", seed), cfg, cross=True)


def source_memory(text=page.SOURCE, seed=page.ENCODER_SEED, cfg=CFG):  # str -> [m, d]
    """Return a separate, seeded encoder's output for text: the memory an encoder-decoder reads. Used in chapter 12."""
    return encode(tokenize(text), init_stack(nonneg_int("seed", seed), cfg), cfg)


def blocks(x, params, cfg, self_mask, memory=None, cross_mask=None):  # [n, d] -> [n, d]
    """Run stage 3: every block under the same masks, without the final norm. Used in chapters 12 and 13."""
    return stack(x, params, cfg, self_mask, memory=memory, cross_mask=cross_mask, final_norm=False)[0]


def forward(tokens, params, cfg, machine="decoder", memory=None):  # [n] -> dict of stage arrays
    """Run stages 2-5 on token ids and return each stage's output, keyed by stage name. Used in chapter 12."""
    x = embed(tokens, params, cfg)
    if check_machine(machine) == "encoder-decoder" and memory is None:
        raise ValueError("memory (the encoder's output) is required for machine='encoder-decoder'")
    if machine != "encoder-decoder" and memory is not None:
        raise ValueError(f"memory is read only by machine='encoder-decoder', got machine={machine!r}")
    self_mask, cross_mask = masks(machine, len(x), None if memory is None else np.shape(memory)[0])
    h = blocks(x, params, cfg, self_mask, memory, cross_mask)
    h_norm = layer_norm(h, params["ln_f"])
    return {"embed": x, "blocks": h, "final_norm": h_norm, "logits": logits(h_norm, params)}


@dataclass(frozen=True, eq=False)
class Stage:
    """One stage's name and the array it produced. Used in chapter 12."""

    name: str
    array: np.ndarray


def run(text=page.PROMPT, *, n_new=page.N_NEW, temperature=page.TEMPERATURE, seed=page.SAMPLE_SEED, greedy=False,
        params=None, cfg=CFG):
    """Run the seven stages on text with a decoder, recording every stage; return (stages, generated text).

    Stages 1-6 are recorded for the first step; stage 7 (loop) is the [n_new + 1, n_total] grid
    of ids the loop holds before each step, -1 where nothing is written yet. The loop recomputes
    everything each step (no cache). Used in chapter 12 (sampling-pipeline).
    """
    n_new = nonneg_int("n_new", n_new)
    params = shared_weights(page.SEED, cfg) if params is None else params
    rng = np.random.default_rng(nonneg_int("seed", seed))
    ids = tokenize(text)
    if ids.size + n_new > cfg.max_len:
        raise ValueError(f"len(text) + n_new must be <= max_len={cfg.max_len}, got {ids.size + n_new}")
    # one token more than kept: the first choice is stage 6's, the last one is drawn and dropped
    out = generate(ids, params, cfg, n_new + 1, greedy=greedy, temperature=temperature, rng=rng)
    first = forward(ids, params, cfg, "decoder")
    stages = [Stage("tokenize", ids.copy())] + [Stage(k, first[k]) for k in ("embed", "blocks", "final_norm", "logits")]
    stages.append(Stage("sample", out[ids.size:ids.size + 1]))
    grid = np.full((n_new + 1, ids.size + n_new), -1)
    for k in range(n_new + 1):
        grid[k, :ids.size + k] = out[:ids.size + k]
    stages.append(Stage("loop", grid))
    return stages, detokenize(out[:ids.size + n_new])


def dependence(text=page.PROMPT, machine="decoder", source=page.SOURCE, *, params=None, cfg=CFG):  # -> [n, n + m] bool
    """Return which inputs each output position's logits depend on, found by changing one input at a time.

    Columns are the n characters of text, then the m characters of source (the encoder's input,
    read only by the encoder-decoder). Cell [i, j] is True if changing input j moves output i.
    Used in chapter 12 (sampling-pipeline).
    """
    params = shared_weights(page.SEED, cfg) if params is None else params
    ids, src = tokenize(text), tokenize(source)
    memory = source_memory(source, cfg=cfg) if check_machine(machine) == "encoder-decoder" else None
    own = movement(lambda t: forward(t, params, cfg, machine, memory)["logits"], ids,
                   [nudge(ids, j, cfg.vocab_size) for j in range(ids.size)])
    if memory is None:
        return np.concatenate([own > BOUND, np.zeros((ids.size, src.size), bool)], axis=1)
    cross = movement(lambda s: forward(ids, params, cfg, machine, source_memory(detokenize(s), cfg=cfg))["logits"], src,
                     [nudge(src, j, cfg.vocab_size) for j in range(src.size)])
    return np.concatenate([own, cross], axis=1) > BOUND


# ---- chapter 13: an image "sensor" spliced into a decoder's prefix

def patchify(image, patch):  # [s, s] -> [(s / patch)^2, patch^2]
    """Cut a square image into non-overlapping patch x patch squares, row by row, each flattened. Used in chapter 13."""
    image = float_array("image", image, min_ndim=2)
    patch = positive_int("patch", patch)
    s = image.shape[0]
    if image.ndim != 2 or image.shape[1] != s or s % patch:
        raise ValueError(f"image must be square with a side divisible by patch={patch}, got shape {image.shape}")
    g = s // patch
    return image.reshape(g, patch, g, patch).transpose(0, 2, 1, 3).reshape(g * g, patch * patch)


def toy_image(seed=today.IMAGE_SEED, side=today.IMAGE_SIDE):  # -> [side, side]
    """Return a seeded random grey-scale image. Used in chapter 13 (today)."""
    return np.random.default_rng(nonneg_int("seed", seed)).random((positive_int("side", side),) * 2)


def vision_sensor(image, seed=today.IMAGE_SEED, cfg=CFG, patch=today.PATCH_SIDE):  # [s, s] -> [p, d]
    """Encode image patches with a full mask (an encoder), then project them to the decoder's width. Used in chapter 13."""
    patches = patchify(image, patch)
    rng = np.random.default_rng(nonneg_int("seed", seed) + 1000)
    w_in = rng.normal(0.0, patch ** -1, (patches.shape[1], cfg.d_model))
    w_proj = rng.normal(0.0, cfg.d_model ** -0.5, (cfg.d_model, cfg.d_model))
    enc = init_stack(seed, cfg)
    x = patches @ w_in + enc["wpe"][:patches.shape[0]]
    h = blocks(x, enc, cfg, masks("encoder", len(x))[0])
    return layer_norm(h, enc["ln_f"]) @ w_proj


def prefix_forward(image, text=today.CAPTION, *, params=None, cfg=CFG):  # -> [p + n, vocab]
    """Run a decoder over [image patch vectors; text embeddings] under one causal mask; return logits. Used in chapter 13."""
    params = shared_weights(page.SEED, cfg) if params is None else params
    prefix = vision_sensor(image, cfg=cfg)
    ids = tokenize(text)
    p = prefix.shape[0]
    if p + ids.size > cfg.max_len:
        raise ValueError(f"patches + len(text) must be <= max_len={cfg.max_len}, got {p + ids.size}")
    x = np.concatenate([prefix, params["wte"][ids]]) + params["wpe"][:p + ids.size]
    h = blocks(x, params, cfg, masks("decoder", len(x))[0])
    return logits(layer_norm(h, params["ln_f"]), params)


def prefix_dependence(image=None, text=today.CAPTION, *, params=None, cfg=CFG, patch=today.PATCH_SIDE):  # -> [p + n, p + n] bool
    """Return which inputs (pixels of each patch, then characters) each position's output depends on. Used in chapter 13."""
    image = toy_image() if image is None else float_array("image", image, min_ndim=2)
    ids = tokenize(text)
    side = image.shape[0] // patch
    changed_pixels = []
    for j in range(side * side):        # one pixel of patch j, nudged
        changed = image.copy()
        r, c = divmod(j, side)
        changed[r * patch, c * patch] += 1.0
        changed_pixels.append((changed, ids))
    changed_text = [(image, nudge(ids, j, cfg.vocab_size)) for j in range(ids.size)]
    moved = movement(lambda inp: prefix_forward(inp[0], detokenize(inp[1]), params=params, cfg=cfg), (image, ids),
                     changed_pixels + changed_text)
    return moved > BOUND


# ---- chapter 13: how many kinds of block each design needs

def _signature(p):
    return tuple(sorted((k, tuple(np.shape(w))) for k, sub in p.items() for w in _leaves(sub)))


def _leaves(tree):
    if isinstance(tree, dict):
        for v in tree.values():
            yield from _leaves(v)
    else:
        yield tree


def block_kinds(cfg=CFG, seed=page.SEED):
    """Return {design: [(sub-layer names, parameters per block, number of such blocks), ...]}. Used in chapter 13.

    decoder-only: one stack of self-attention blocks. encoder-decoder: an encoder stack plus a
    decoder stack whose blocks also carry cross-attention, n_layers each.
    """
    stacks = {"decoder-only": [init_stack(seed, cfg)],
              "encoder-decoder": [init_stack(seed, cfg), init_stack(seed + 1, cfg, cross=True)]}
    order = ("self", "cross", "ff1")
    out = {}
    for design, parts in stacks.items():
        kinds = {}
        for params in parts:
            for p in params["blocks"]:
                sig = _signature(p)
                if sig not in kinds:
                    kinds[sig] = [tuple(k for k in order if k in p), count_weights(p), 0]
                kinds[sig][2] += 1
        out[design] = [tuple(v) for v in kinds.values()]
    return out

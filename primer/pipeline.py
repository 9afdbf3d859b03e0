"""The seven stages from text to the next token, run end to end on a toy character vocabulary.

tokenize -> embed -> N masked blocks -> final norm -> logits -> sample -> loop. The weights
are random but seeded (primer.transformer.init_stack): the arrays are real, the text they
produce is gibberish. Only stage 3's masks differ between an encoder, a decoder and an
encoder-decoder; every other stage and every weight is shared.
"""

from dataclasses import dataclass

import numpy as np

from primer._checks import float_array, nonneg_int, positive_int
from primer.masks import causal_mask, full_mask
from primer.sampling import sample
from primer.transformer import Config, count_weights, embed, encode, init_stack, layer_norm, logits, stack

# A toy character vocabulary: one id per character, 32 of them.
VOCAB = " abcdefghijklmnopqrstuvwxyz.,!?'"
CFG = Config(vocab_size=len(VOCAB), d_model=16, n_heads=4, d_ff=32, n_layers=2, max_len=64)
SEED = 0            # the shared stack's weights (with cross-attention sub-layers, unused unless read)
ENCODER_SEED = 1    # the separate encoder whose output the encoder-decoder reads
PROMPT = "the cat"
SOURCE = "le chat"  # the encoder's input in the encoder-decoder setting
N_NEW = 8           # characters the loop appends
TEMPERATURE = 1.0
SAMPLE_SEED = 0

MACHINES = ("encoder", "decoder", "encoder-decoder")
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


def shared_weights(seed=SEED, cfg=CFG):
    """Return the one set of weights all three machines use (blocks carry a cross-attention sub-layer)."""
    return init_stack(nonneg_int("seed", seed), cfg, cross=True)


def source_memory(text=SOURCE, seed=ENCODER_SEED, cfg=CFG):  # str -> [m, d]
    """Return a separate, seeded encoder's output for text: the memory an encoder-decoder reads."""
    return encode(tokenize(text), init_stack(nonneg_int("seed", seed), cfg), cfg)


def stage3_masks(machine, n, m=None):  # -> ([n, n], [n, m] or None)
    """Return stage 3's (self mask, cross mask): full, causal, or causal plus a full rectangle over m memory rows."""
    n = positive_int("n", n)
    if machine == "encoder":
        return full_mask(n), None
    if machine == "decoder":
        return causal_mask(n), None
    if machine == "encoder-decoder":
        if m is None:
            raise ValueError("m (the number of memory rows) is required for machine='encoder-decoder'")
        return causal_mask(n), full_mask(n, positive_int("m", m))
    raise ValueError(f"machine must be one of {MACHINES}, got {machine!r}")


def reach(machine, n, m):  # -> [n, n + m]
    """Return stage 3's masks side by side: the self mask over n positions, then the cross mask over m memory rows (all False if none)."""
    self_mask, cross_mask = stage3_masks(machine, n, m)
    m = positive_int("m", m)
    return np.concatenate([self_mask, np.zeros((n, m), bool) if cross_mask is None else cross_mask], axis=1)


def blocks(x, params, cfg, self_mask, memory=None, cross_mask=None):  # [n, d] -> [n, d]
    """Run stage 3: every block under the same masks, without the final norm."""
    return stack(x, params, cfg, self_mask, memory=memory, cross_mask=cross_mask, final_norm=False)[0]


def forward(tokens, params, cfg, machine="decoder", memory=None):  # [n] -> dict of stage arrays
    """Run stages 2-5 on token ids and return each stage's output, keyed by stage name."""
    x = embed(tokens, params, cfg)
    if machine == "encoder-decoder" and memory is None:
        raise ValueError("memory (the encoder's output) is required for machine='encoder-decoder'")
    if machine != "encoder-decoder" and memory is not None:
        raise ValueError(f"memory is read only by machine='encoder-decoder', got machine={machine!r}")
    self_mask, cross_mask = stage3_masks(machine, len(x), None if memory is None else np.shape(memory)[0])
    h = blocks(x, params, cfg, self_mask, memory, cross_mask)
    h_norm = layer_norm(h, params["ln_f"])
    return {"embed": x, "blocks": h, "final_norm": h_norm, "logits": logits(h_norm, params)}


@dataclass(frozen=True, eq=False)
class Stage:
    """One stage's name and the array it produced."""

    name: str
    array: np.ndarray


def run(text=PROMPT, *, n_new=N_NEW, temperature=TEMPERATURE, seed=SAMPLE_SEED, greedy=False,
        params=None, cfg=CFG):
    """Run the seven stages on text with a decoder, recording every stage; return (stages, generated text).

    Stages 1-6 are recorded for the first step; stage 7 (loop) is the [n_new + 1, n_total] grid
    of ids the loop holds before each step, -1 where nothing is written yet. The loop recomputes
    everything each step (no cache).
    """
    n_new = nonneg_int("n_new", n_new)
    params = shared_weights(SEED, cfg) if params is None else params
    rng = np.random.default_rng(nonneg_int("seed", seed))
    ids = tokenize(text)
    if ids.size + n_new > cfg.max_len:
        raise ValueError(f"len(text) + n_new must be <= max_len={cfg.max_len}, got {ids.size + n_new}")
    stages = [Stage("tokenize", ids.copy())]
    history = [ids.copy()]
    for step in range(n_new + 1):
        out = forward(ids, params, cfg, "decoder")
        next_id = sample(out["logits"][-1], temperature, rng=rng, greedy=greedy)
        if step == 0:
            stages += [Stage(k, out[k]) for k in ("embed", "blocks", "final_norm", "logits")]
            stages.append(Stage("sample", np.array([next_id])))
        if step == n_new:
            break
        ids = np.append(ids, next_id)
        history.append(ids.copy())
    grid = np.full((len(history), history[-1].size), -1)
    for k, row in enumerate(history):
        grid[k, :row.size] = row
    stages.append(Stage("loop", grid))
    return stages, detokenize(history[-1])


def dependence(text=PROMPT, machine="decoder", source=SOURCE, *, params=None, cfg=CFG):  # -> [n, n + m] bool
    """Return which inputs each output position's logits depend on, found by changing one input at a time.

    Columns are the n characters of text, then the m characters of source (the encoder's input,
    read only by the encoder-decoder). Cell [i, j] is True if changing input j moves output i.
    """
    params = shared_weights(SEED, cfg) if params is None else params
    ids, src = tokenize(text), tokenize(source)
    memory = source_memory(source, cfg=cfg) if machine == "encoder-decoder" else None
    base = forward(ids, params, cfg, machine, memory)["logits"]
    n, m = ids.size, src.size
    dep = np.zeros((n, n + m), dtype=bool)
    for j in range(n):
        changed = ids.copy()
        changed[j] = (changed[j] + 1) % cfg.vocab_size
        dep[:, j] = np.abs(forward(changed, params, cfg, machine, memory)["logits"] - base).max(axis=-1) > 1e-12
    if memory is not None:
        for j in range(m):
            changed = src.copy()
            changed[j] = (changed[j] + 1) % cfg.vocab_size
            moved = forward(ids, params, cfg, machine, source_memory(detokenize(changed), cfg=cfg))["logits"]
            dep[:, n + j] = np.abs(moved - base).max(axis=-1) > 1e-12
    return dep


# ---- chapter 13: an image "sensor" spliced into a decoder's prefix

IMAGE_SIDE, PATCH_SIDE = 4, 2
IMAGE_SEED = 2      # the toy image's pixels and the vision encoder's weights
CAPTION = "a cat"   # the text that follows the image prefix


def patchify(image, patch):  # [s, s] -> [(s / patch)^2, patch^2]
    """Cut a square image into non-overlapping patch x patch squares, row by row, each flattened."""
    image = float_array("image", image, min_ndim=2)
    patch = positive_int("patch", patch)
    s = image.shape[0]
    if image.ndim != 2 or image.shape[1] != s or s % patch:
        raise ValueError(f"image must be square with a side divisible by patch={patch}, got shape {image.shape}")
    g = s // patch
    return image.reshape(g, patch, g, patch).transpose(0, 2, 1, 3).reshape(g * g, patch * patch)


def toy_image(seed=IMAGE_SEED):  # -> [IMAGE_SIDE, IMAGE_SIDE]
    """Return a seeded random grey-scale image."""
    return np.random.default_rng(nonneg_int("seed", seed)).random((IMAGE_SIDE, IMAGE_SIDE))


def vision_sensor(image, seed=IMAGE_SEED, cfg=CFG):  # [s, s] -> [p, d]
    """Encode image patches with a full mask (an encoder), then project them to the decoder's width."""
    patches = patchify(image, PATCH_SIDE)
    rng = np.random.default_rng(nonneg_int("seed", seed) + 1000)
    w_in = rng.normal(0.0, PATCH_SIDE ** -1, (patches.shape[1], cfg.d_model))
    w_proj = rng.normal(0.0, cfg.d_model ** -0.5, (cfg.d_model, cfg.d_model))
    enc = init_stack(seed, cfg)
    x = patches @ w_in + enc["wpe"][:patches.shape[0]]
    h = blocks(x, enc, cfg, full_mask(len(x)))
    return layer_norm(h, enc["ln_f"]) @ w_proj


def prefix_forward(image, text=CAPTION, *, params=None, cfg=CFG):  # -> [p + n, vocab]
    """Run a decoder over [image patch vectors; text embeddings] under one causal mask; return logits."""
    params = shared_weights(SEED, cfg) if params is None else params
    prefix = vision_sensor(image, cfg=cfg)
    ids = tokenize(text)
    p = prefix.shape[0]
    if p + ids.size > cfg.max_len:
        raise ValueError(f"patches + len(text) must be <= max_len={cfg.max_len}, got {p + ids.size}")
    x = np.concatenate([prefix, params["wte"][ids]]) + params["wpe"][:p + ids.size]
    h = blocks(x, params, cfg, causal_mask(len(x)))
    return logits(layer_norm(h, params["ln_f"]), params)


def prefix_dependence(image=None, text=CAPTION, *, params=None, cfg=CFG):  # -> [p + n, p + n] bool
    """Return which inputs (pixels of each patch, then characters) each position's output depends on."""
    image = toy_image() if image is None else float_array("image", image, min_ndim=2)
    base = prefix_forward(image, text, params=params, cfg=cfg)
    ids = tokenize(text)
    p = (image.shape[0] // PATCH_SIDE) ** 2
    dep = np.zeros((p + ids.size, p + ids.size), dtype=bool)
    for j in range(p):
        changed = image.copy()
        r, c = divmod(j, image.shape[0] // PATCH_SIDE)
        changed[r * PATCH_SIDE, c * PATCH_SIDE] += 1.0
        dep[:, j] = np.abs(prefix_forward(changed, text, params=params, cfg=cfg) - base).max(axis=-1) > 1e-12
    for j in range(ids.size):
        changed = ids.copy()
        changed[j] = (changed[j] + 1) % cfg.vocab_size
        moved = prefix_forward(image, detokenize(changed), params=params, cfg=cfg)
        dep[:, p + j] = np.abs(moved - base).max(axis=-1) > 1e-12
    return dep


# ---- chapter 13: how many kinds of block each design needs

param_count = count_weights  # the chapter-13 name for it


def _signature(p):
    return tuple(sorted((k, tuple(np.shape(w))) for k, sub in p.items() for w in _leaves(sub)))


def _leaves(tree):
    if isinstance(tree, dict):
        for v in tree.values():
            yield from _leaves(v)
    else:
        yield tree


def block_kinds(cfg=CFG, seed=SEED):
    """Return {design: [(sub-layer names, parameters per block, number of such blocks), ...]}.

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
                    kinds[sig] = [tuple(k for k in order if k in p), param_count(p), 0]
                kinds[sig][2] += 1
        out[design] = [tuple(v) for v in kinds.values()]
    return out

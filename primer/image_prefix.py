"""An image "sensor" spliced into a decoder's prefix, and how many kinds of block each design needs.

The image is encoded (full mask) patch by patch, projected to the decoder's width and put before
the text; one causal mask runs over both. Weights are random but seeded; the toy character model
is primer.sampling_pipeline's.
"""

import numpy as np

from primer._checks import float_array, nonneg_int, positive_int
from primer.counts import count_values
from primer.machines import machine_masks
from primer.probe import movement, nudge
from primer.rounding import BOUND
from primer.sampling_pipeline import CFG, blocks, detokenize, tokenize
from primer.transformer import init_stack, layer_norm, logits


def patchify(image, patch):  # [s, s] -> [(s / patch)^2, patch^2]
    """Cut a square image into non-overlapping patch x patch squares, row by row, each flattened."""
    image = float_array("image", image, min_ndim=2)
    patch = positive_int("patch", patch)
    s = image.shape[0]
    if image.ndim != 2 or image.shape[1] != s or s % patch:
        raise ValueError(f"image must be square with a side divisible by patch={patch}, got shape {image.shape}")
    g = s // patch
    return image.reshape(g, patch, g, patch).transpose(0, 2, 1, 3).reshape(g * g, patch * patch)


def toy_image(seed, side):  # -> [side, side]
    """Return a seeded random grey-scale image."""
    return np.random.default_rng(nonneg_int("seed", seed)).random((positive_int("side", side),) * 2)


def vision_sensor(image, seed, patch, cfg=CFG):  # [s, s] -> [p, d]
    """Encode image patches with a full mask (an encoder), then project them to the decoder's width."""
    patches = patchify(image, patch)
    rng = np.random.default_rng(nonneg_int("seed", seed) + 1000)
    w_in = rng.normal(0.0, patch**-1, (patches.shape[1], cfg.d_model))
    w_proj = rng.normal(0.0, cfg.d_model**-0.5, (cfg.d_model, cfg.d_model))
    enc = init_stack(seed, cfg)
    x = patches @ w_in + enc["wpe"][: patches.shape[0]]
    h = blocks(x, enc, cfg, machine_masks("encoder", len(x))[0])
    return layer_norm(h, enc["ln_f"]) @ w_proj


def prefix_forward(image, text, params, seed, patch, cfg=CFG):  # -> [p + n, vocab]
    """Run a decoder over [image patch vectors; text embeddings] under one causal mask; return logits.

    The image is cut into patch x patch squares and encoded by a sensor with seeded weights.
    """
    prefix = vision_sensor(image, seed, patch, cfg)
    ids = tokenize(text)
    p = prefix.shape[0]
    if p + ids.size > cfg.max_len:
        raise ValueError(f"patches + len(text) must be <= max_len={cfg.max_len}, got {p + ids.size}")
    x = np.concatenate([prefix, params["wte"][ids]]) + params["wpe"][: p + ids.size]
    h = blocks(x, params, cfg, machine_masks("decoder", len(x))[0])
    return logits(layer_norm(h, params["ln_f"]), params)


def prefix_dependence(image, text, params, seed, patch, cfg=CFG):  # -> [p + n, p + n] bool
    """Return which inputs (pixels of each patch, then characters) each position's output depends on."""
    image = float_array("image", image, min_ndim=2)
    ids = tokenize(text)
    side = image.shape[0] // patch
    changed_pixels = []
    for j in range(side * side):  # one pixel of patch j, nudged
        changed = image.copy()
        r, c = divmod(j, side)
        changed[r * patch, c * patch] += 1.0
        changed_pixels.append((changed, ids))
    changed_text = [(image, nudge(ids, j, cfg.vocab_size)) for j in range(ids.size)]
    moved = movement(
        lambda inp: prefix_forward(inp[0], detokenize(inp[1]), params, seed, patch, cfg),
        (image, ids),
        changed_pixels + changed_text,
    )
    return moved > BOUND


# ---- how many kinds of block each design needs


def _signature(p):
    return tuple(sorted((k, tuple(np.shape(w))) for k, sub in p.items() for w in _leaves(sub)))


def _leaves(tree):
    if isinstance(tree, dict):
        for v in tree.values():
            yield from _leaves(v)
    else:
        yield tree


def block_kinds(seed, cfg=CFG):
    """Return {design: [(sub-layer names, parameters per block, number of such blocks), ...]}.

    decoder-only: one stack of self-attention blocks. encoder-decoder: an encoder stack plus a
    decoder stack whose blocks also carry cross-attention, n_layers each.
    """
    stacks = {
        "decoder-only": [init_stack(seed, cfg)],
        "encoder-decoder": [init_stack(seed, cfg), init_stack(seed + 1, cfg, cross=True)],
    }
    order = ("self", "cross", "ff1")
    out = {}
    for design, parts in stacks.items():
        kinds = {}
        for params in parts:
            for p in params["blocks"]:
                sig = _signature(p)
                if sig not in kinds:
                    kinds[sig] = [tuple(k for k in order if k in p), count_values(p), 0]
                kinds[sig][2] += 1
        out[design] = [tuple(v) for v in kinds.values()]
    return out

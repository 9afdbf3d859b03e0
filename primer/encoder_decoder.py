"""The encoder-decoder at work: greedy generation that projects the encoder's K/V once, and two
prompt layouts for translation (two stacks vs one decoder-only prompt).

The weights are random but seeded (primer.transformer): the words generated mean nothing. What
this module shows is where the work goes and which masks are used, not translation quality.
The toy vocabulary's first word is the begin-of-sequence token the decoder starts from.
"""

from collections import Counter

import numpy as np

from primer._checks import positive_int
from primer.counts import count_values
from primer.decoding import generate as decode_loop
from primer.kv_cache import decode_cached
from primer.machines import machine_masks, stack_masks
from primer.transformer import embed, encode, encoder_kv, init_block, init_stack, stack
from primer.vocab import BOS, to_ids


def model(cfg, enc_seed, dec_seed):  # -> (encoder params, decoder params)
    """Return seeded weights of an encoder stack and of a decoder stack with cross-attention."""
    return init_stack(enc_seed, cfg), init_stack(dec_seed, cfg, cross=True)


def generate(source, enc, dec, cfg, steps, reuse_kv=True, ops=None):  # [m] ids -> [steps] ids
    """Encode the source once, then generate `steps` tokens greedily from BOS (id 0); return them, BOS excluded.

    reuse_kv=True projects the encoder's K/V once per decoder layer, before the first step, and
    reuses them; reuse_kv=False hands the loop the encoder's output, which each step projects
    again. Neither caches the decoder's own K/V (that is the KV cache's job). Pass a Counter as
    ops to count the work.
    """
    steps = positive_int("steps", steps)
    if steps > cfg.max_len:  # the decoder reads BOS and steps - 1 generated tokens
        raise ValueError(f"steps must be <= max_len={cfg.max_len}, got {steps}")
    enc_out = encode(source, enc, cfg, ops)
    kv = {"enc_kv": encoder_kv(enc_out, dec, cfg, ops)} if reuse_kv else {"enc_out": enc_out}
    return [int(t) for t in decode_loop([0], dec, cfg, steps, ops=ops, **kv)[1:]]


def projection_counts(ids, enc, dec, cfg, max_steps):  # [m] ids -> list of (steps, reused, naive)
    """Return the encoder-side K/V projections of a run of 1 .. max_steps steps, reused vs recomputed."""
    max_steps = positive_int("max_steps", max_steps)
    rows = []
    for t in range(1, max_steps + 1):
        once, naive = Counter(), Counter()
        if generate(ids, enc, dec, cfg, t, True, once) != generate(ids, enc, dec, cfg, t, False, naive):
            raise AssertionError("reusing the encoder's K/V must not change what is generated")
        rows.append((t, once["cross_kv_projections"], naive["cross_kv_projections"]))
    return rows


def teacher_forced(source, target, vocab, enc, dec, cfg):  # -> dict of per-layer weights
    """Run both stacks on the page's sentence pair (decoder input: BOS + target shifted right).

    Returns {"enc": per-layer encoder self weights [h, m, m], "self": decoder self [h, n, n],
    "cross": decoder cross [h, n, m], "src": source words, "tgt": decoder input words}.
    """
    src = to_ids(source, vocab, "source")
    enc_out, enc_w = stack(embed(src, enc, cfg), enc, cfg, machine_masks("encoder", len(src))[0])
    tgt_in = [BOS] + list(target[:-1])
    dec_w = []
    decode_cached(to_ids(tgt_in, vocab, "target"), dec, cfg, enc_kv=encoder_kv(enc_out, dec, cfg), weights=dec_w)
    return {
        "enc": [w["self"] for w in enc_w],
        "self": [w["self"] for w in dec_w],
        "cross": [w["cross"] for w in dec_w],
        "src": list(source),
        "tgt": tgt_in,
    }


# Region codes of a layout grid: which attention a cell belongs to.
CLOSED, ENC_SELF, CROSS, DEC_SELF, PROMPT = 0, 1, 2, 3, 4


def two_stack_layout(n_source, n_target):  # -> ([L, L] bool, [L, L] region codes), L = n_source + n_target
    """Draw an encoder-decoder on one grid: rows and columns are source then target positions.

    Source rows read every source column (encoder, full mask); target rows read every source
    column (cross-attention, full rectangle) and their own past (decoder, causal mask).
    """
    m, n = positive_int("n_source", n_source), positive_int("n_target", n_target)
    enc, dec, cross = stack_masks("encoder-decoder", m, n)
    mask = np.zeros((m + n, m + n), dtype=bool)
    mask[:m, :m], mask[m:, :m], mask[m:, m:] = enc, cross, dec
    region = np.zeros(mask.shape, dtype=int)
    region[:m, :m], region[m:, :m], region[m:, m:] = ENC_SELF, CROSS, DEC_SELF
    return mask, np.where(mask, region, CLOSED)


def prompt_layout(source, target, tags):  # -> (words, [L, L] bool, [L, L] region codes)
    """Lay the pair out as one decoder-only prompt, 'French: ... English: ...', under one causal mask."""
    if not source or not target:
        raise ValueError("source and target must not be empty")
    prompt = [tags[0], ":"] + list(source) + [tags[1], ":"]
    words = prompt + list(target)
    mask = machine_masks("decoder", len(words))[0]
    region = np.full(mask.shape, DEC_SELF)
    region[:, : len(prompt)] = CROSS  # target rows reading the prompt do what cross-attention did
    region[: len(prompt), :] = PROMPT  # the prompt reads itself, causally
    return words, mask, np.where(mask, region, CLOSED)


def layout_summary(source, target, tags):  # -> list of (name, grid side, open cells, source reads later source)
    """Return, per layout, the grid side, the open cells, and whether a source word reads later source words."""
    m, n = len(source), len(target)
    two, _ = two_stack_layout(m, n)
    _, one, _ = prompt_layout(source, target, tags)
    start = 2  # the source begins after "French", ":"
    src_one = one[start : start + m, start : start + m]
    return [
        ("two_stacks", len(two), int(two.sum()), bool(np.triu(two[:m, :m], 1).any())),
        ("one_prompt", len(one), int(one.sum()), bool(np.triu(src_one, 1).any())),
    ]


SUBLAYERS = (
    ("self", ("ln1", "self")),
    ("cross", ("ln2", "cross")),
    ("ffn", ("ln3", "ff1", "ff2")),
)


def block_anatomy(cfg, seed=0):  # -> list of (sub-layer, encoder-block params or None, decoder-block params or None)
    """Count each sub-layer's weights (its LayerNorm included) in an encoder block and a decoder block."""
    rng = np.random.default_rng(seed)
    enc, dec = init_block(rng, cfg), init_block(rng, cfg, cross=True)

    def count(p, keys):
        return sum(count_values(p[k]) for k in keys if k in p) or None

    return [(name, count(enc, keys), count(dec, keys)) for name, keys in SUBLAYERS]

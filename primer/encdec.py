"""The encoder-decoder at work: greedy generation that projects the encoder's K/V once, and two
prompt layouts for translation (two stacks vs one decoder-only prompt).

The weights are random but seeded (primer.transformer): the words generated mean nothing. What
this module shows is where the work goes and which masks are used, not translation quality.
"""

from collections import Counter
from dataclasses import dataclass, field

import numpy as np

from primer._checks import float_array, nonneg_int, positive_int
from primer.masks import causal_mask, full_mask
from primer.transformer import Config, count_weights, decode, embed, encode, encoder_kv, init_block, init_stack, logits, stack
from primer.vocab import to_ids, to_words

BOS = "<bos>"
SOURCE = ("le", "chat", "était", "assis", "sur", "le", "tapis")   # French
TARGET = ("the", "cat", "sat", "on", "the", "mat")                # English
SOURCE_TAG, TARGET_TAG, COLON = "French", "English", ":"
VOCAB = (BOS, SOURCE_TAG, TARGET_TAG, COLON,
         "le", "chat", "était", "assis", "sur", "tapis",
         "the", "cat", "sat", "on", "mat")

# The original Transformer stacked 6 encoder and 6 decoder layers; the toy does the same, narrow.
CFG = Config(vocab_size=len(VOCAB), n_layers=6)
ENC_SEED, DEC_SEED = 1, 2
STEPS = 6        # greedy steps in the page's generation run
LAYER = 0        # the decoder layer whose two sub-layers the page shows side by side


def ids(words, vocab=VOCAB):  # [n] words -> [n] int ids
    """Return the id of each word in vocab."""
    return to_ids(words, vocab)


def words(token_ids, vocab=VOCAB):  # [n] ids -> [n] words
    """Return the word of each id."""
    return to_words(token_ids, vocab)


def model(cfg=CFG, enc_seed=ENC_SEED, dec_seed=DEC_SEED):  # -> (encoder params, decoder params)
    """Return seeded weights of an encoder stack and of a decoder stack with cross-attention."""
    return init_stack(enc_seed, cfg), init_stack(dec_seed, cfg, cross=True)


def decode_with_memory_kv(tokens, params, cfg, memory_kv, ops=None):  # [n], per layer K/V of [h, m, d_head] -> ([n, vocab], per-layer weights)
    """Run the decoder over tokens, reading K/V the encoder side already projected (nothing re-projected)."""
    x = embed(tokens, params, cfg)
    h, weights = stack(x, params, cfg, causal_mask(len(x)), memory_kv=memory_kv, ops=ops)
    return logits(h, params), weights


@dataclass
class Generation:
    """What a greedy run produced, and what it cost."""

    tokens: list                       # generated ids, BOS excluded
    ops: Counter = field(default_factory=Counter)
    cross_weights: list = field(default_factory=list)  # per step: per layer [h, t, m]
    last_logits: list = field(default_factory=list)    # per step: [vocab] scores of the last position


def generate(source, enc, dec, cfg, steps=STEPS, reuse_kv=True, ops=None):  # [m] ids -> Generation
    """Encode the source once, then generate greedily for `steps` tokens.

    reuse_kv=True projects the encoder's K/V once per decoder layer, before the first step, and
    reuses them; reuse_kv=False is the naive loop that calls transformer.decode every step, which
    projects them again each time. Neither caches the decoder's own K/V (that is the KV cache's job).
    """
    steps = positive_int("steps", steps)
    if 1 + steps > cfg.max_len:
        raise ValueError(f"steps must leave room for BOS within max_len={cfg.max_len}, got {steps}")
    ops = Counter() if ops is None else ops
    memory = encode(source, enc, cfg, ops)
    kv = encoder_kv(memory, dec, cfg, ops) if reuse_kv else None
    prefix = [VOCAB.index(BOS)]
    run = Generation(tokens=[], ops=ops)
    for _ in range(steps):
        if reuse_kv:
            out, w = decode_with_memory_kv(np.array(prefix), dec, cfg, kv, ops)
            run.cross_weights.append([layer["cross"] for layer in w])
        else:
            out = decode(np.array(prefix), dec, cfg, memory=memory, ops=ops)
        nxt = int(np.argmax(out[-1]))
        run.last_logits.append(out[-1])
        prefix.append(nxt)
        run.tokens.append(nxt)
    return run


def projection_counts(max_steps=STEPS, cfg=CFG):  # -> list of (steps, reused, naive)
    """Return the encoder-side K/V projections of a run of 1 .. max_steps steps, reused vs recomputed."""
    max_steps = positive_int("max_steps", max_steps)
    enc, dec = model(cfg)
    source = ids(SOURCE)
    rows = []
    for t in range(1, max_steps + 1):
        once, naive = generate(source, enc, dec, cfg, t, reuse_kv=True), generate(source, enc, dec, cfg, t, reuse_kv=False)
        if once.tokens != naive.tokens:
            raise AssertionError("reusing the encoder's K/V must not change what is generated")
        rows.append((t, once.ops["cross_kv_projections"], naive.ops["cross_kv_projections"]))
    return rows


def teacher_forced(cfg=CFG, source=SOURCE, target=TARGET):  # -> dict of per-layer weights
    """Run both stacks on the page's sentence pair (decoder input: BOS + target shifted right).

    Returns {"enc": per-layer encoder self weights [h, m, m], "self": decoder self [h, n, n],
    "cross": decoder cross [h, n, m], "src": source words, "tgt": decoder input words}.
    """
    enc, dec = model(cfg)
    src = ids(source)
    x = embed(src, enc, cfg)
    memory, enc_w = stack(x, enc, cfg, full_mask(len(src)))
    tgt_in = [BOS] + list(target[:-1])
    _, dec_w = decode_with_memory_kv(ids(tgt_in), dec, cfg, encoder_kv(memory, dec, cfg))
    return {"enc": [w["self"] for w in enc_w], "self": [w["self"] for w in dec_w],
            "cross": [w["cross"] for w in dec_w], "src": list(source), "tgt": tgt_in}


def cross_mask_rows(n_target, n_source):  # -> [n_target, n_source]
    """Return the cross-attention mask: a full rectangle, every decoder row reads every source column."""
    return full_mask(n_target, n_source)


# Region codes of a layout grid: which attention a cell belongs to.
CLOSED, ENC_SELF, CROSS, DEC_SELF, PROMPT = 0, 1, 2, 3, 4


def two_stack_layout(n_source, n_target):  # -> ([L, L] bool, [L, L] region codes), L = n_source + n_target
    """Draw an encoder-decoder on one grid: rows and columns are source then target positions.

    Source rows read every source column (encoder, full mask); target rows read every source
    column (cross-attention, full rectangle) and their own past (decoder, causal mask).
    """
    m, n = positive_int("n_source", n_source), positive_int("n_target", n_target)
    mask = np.zeros((m + n, m + n), dtype=bool)
    mask[:m, :m] = full_mask(m)
    mask[m:, :m] = cross_mask_rows(n, m)
    mask[m:, m:] = causal_mask(n)
    region = np.zeros(mask.shape, dtype=int)
    region[:m, :m], region[m:, :m], region[m:, m:] = ENC_SELF, CROSS, DEC_SELF
    return mask, np.where(mask, region, CLOSED)


def prompt_layout(source=SOURCE, target=TARGET):  # -> (words, [L, L] bool, [L, L] region codes)
    """Lay the pair out as one decoder-only prompt, 'French: ... English: ...', under one causal mask."""
    if not source or not target:
        raise ValueError("source and target must not be empty")
    prompt = [SOURCE_TAG, COLON] + list(source) + [TARGET_TAG, COLON]
    words_ = prompt + list(target)
    mask = causal_mask(len(words_))
    region = np.full(mask.shape, DEC_SELF)
    region[:, :len(prompt)] = CROSS      # target rows reading the prompt do what cross-attention did
    region[:len(prompt), :] = PROMPT     # the prompt reads itself, causally
    return words_, mask, np.where(mask, region, CLOSED)


def layout_summary(source=SOURCE, target=TARGET):  # -> list of (name, grid side, open cells, source reads later source)
    """Return, for each layout, the grid side, how many cells are open, and whether a source word reads later source words."""
    m, n = len(source), len(target)
    two, _ = two_stack_layout(m, n)
    words_, one, _ = prompt_layout(source, target)
    start = 2  # the source begins after "French", ":"
    src_one = one[start:start + m, start:start + m]
    return [("two_stacks", len(two), int(two.sum()), bool(np.triu(two[:m, :m], 1).any())),
            ("one_prompt", len(one), int(one.sum()), bool(np.triu(src_one, 1).any()))]


def mean_heads(weights):  # [h, n_q, n_k] -> [n_q, n_k]
    """Average attention weights over heads."""
    return float_array("weights", weights, min_ndim=3).mean(axis=0)


def check_layer(layer, cfg=CFG):  # -> int
    """Return layer as an int, or raise unless 0 <= layer < n_layers."""
    layer = nonneg_int("layer", layer)
    if layer >= cfg.n_layers:
        raise ValueError(f"layer must be < n_layers={cfg.n_layers}, got {layer}")
    return layer


SUBLAYERS = (("self", ("ln1", "self")), ("cross", ("ln2", "cross")), ("ffn", ("ln3", "ff1", "ff2")))


def block_anatomy(cfg=CFG, seed=0):  # -> list of (sub-layer, encoder-block params or None, decoder-block params or None)
    """Count each sub-layer's weights (its LayerNorm included) in an encoder block and a decoder block."""
    rng = np.random.default_rng(seed)
    enc, dec = init_block(rng, cfg), init_block(rng, cfg, cross=True)

    def count(p, keys):
        return sum(count_weights(p[k]) for k in keys if k in p) or None

    return [(name, count(enc, keys), count(dec, keys)) for name, keys in SUBLAYERS]

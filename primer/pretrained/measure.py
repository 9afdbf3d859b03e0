"""Chapter 18's measurements on the real model (SmolLM2-135M-Instruct through primer.llama_decoder), each computed
once per process: the model is loaded once (primer.pretrained.load caches it) and every forward reads at most 64 tokens.

Losses are next-token cross-entropy in nats, the mean over the positions scored. Logit gaps are max |difference| over
the rows compared and the whole vocabulary, also given relative to the largest |logit| of the reference.
"""

import functools

import numpy as np

from primer.llama_decoder import self_attention
from primer.mask_checks import check_cache, check_causal, check_mask
from primer.masks import batch_mask, causal_mask, document_mask, full_mask, window_mask
from primer.rms_norm import rms_norm

# Bounds on a float32 logit gap that is rounding (float32 carries about 7 digits; the logits reach about 35): the
# pages print a gap below them as "< bound", since its digits depend on the CPU's order of sums.
GAP_BOUNDS = (1e-3, 1e-5)  # (absolute, relative to the largest |logit|)


def model():
    """Return the loaded model (load() reads the file once per process)."""
    from primer.pretrained import load

    return load()


def next_token_losses(logits, ids):  # [n, vocab], [n] -> [n - 1]
    """Return -log p(ids[i + 1]) under row i's logits, for i = 0 .. n - 2."""
    z = logits[:-1].astype(np.float64)
    z = z - z.max(axis=1, keepdims=True)
    log_p = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
    return -log_p[np.arange(len(ids) - 1), np.asarray(ids[1:])]


def gap(a, b):  # [n, vocab] x2 -> (absolute, relative to max |b|)
    """Return the largest |a - b| and that gap over the largest |b|."""
    d = float(np.abs(a.astype(np.float64) - b.astype(np.float64)).max())
    return d, d / float(np.abs(b).max())


@functools.lru_cache(maxsize=4)
def passage_ids(text, n):  # -> tuple of n ids
    """Return the first n token ids of text."""
    ids = model().encode(text)
    if len(ids) < n:
        raise ValueError(f"text must have at least n = {n} tokens, got {len(ids)}")
    return tuple(ids[:n])


@functools.lru_cache(maxsize=4)
def attention_maps(text):  # -> (tokens [n] str, attention [n_layers, h, n, n])
    """Return the tokens of text and every layer's and head's attention weights under the causal mask."""
    m = model()
    ids = m.encode(text)
    _, attn, _ = m.forward(ids, keep_attn=True)
    return tuple(m.token(i) for i in ids), attn


def sink_shares(attn):  # [n_layers, h, n, n] -> [n_layers, h]
    """Return the share of attention each head puts on the first token, the mean over queries 1 .. n - 1."""
    return attn[:, :, 1:, 0].mean(axis=2)


@functools.lru_cache(maxsize=2)
def window_losses(text, n, windows, sinks, scored_from):  # -> {"causal": float, "window": [..], "sinks": [..]}
    """Return the mean next-token loss of positions scored_from .. n - 2 under the causal mask, and under a sliding
    window of each size with and without the first sinks tokens kept open (StreamingLLM's attention sinks)."""
    m, ids = model(), passage_ids(text, n)

    def loss(mask):
        return float(next_token_losses(m.logits(ids, mask), ids)[scored_from:].mean())

    return {
        "causal": loss(None),
        "window": [loss(window_mask(n, w)) for w in windows],
        "sinks": [loss(window_mask(n, w, sinks=sinks)) for w in windows],
    }


@functools.lru_cache(maxsize=2)
def packing(doc_a, doc_b):  # -> dict
    """Return the second document's mean next-token loss alone, packed after the first under the causal mask, and
    packed under the document mask; and the largest logit gap between the document-masked row and the document alone
    (positions continue from the first document: rotary attention sees only offsets, so this gap is rounding)."""
    m = model()
    a, b = m.encode(doc_a), m.encode(doc_b)
    ids = a + b
    doc_ids = np.repeat([0, 1], [len(a), len(b)])
    alone = m.logits(b)
    packed = m.logits(ids)[len(a) :]
    masked = m.logits(ids, document_mask(doc_ids))[len(a) :]
    return {
        "n_a": len(a),
        "n_b": len(b),
        "alone": float(next_token_losses(alone, b).mean()),
        "packed": float(next_token_losses(packed, b).mean()),
        "document": float(next_token_losses(masked, b).mean()),
        "gap": gap(masked, alone),
    }


@functools.lru_cache(maxsize=2)
def left_padding(text, pad, pad_token):  # -> dict
    """Return, for text left-padded with pad copies of pad_token, its real rows' logit gap to the unpadded pass and
    its last row's top token, three ways: mask and positions right; the mask forgotten (the real tokens read the
    padding); the positions not shifted (the real tokens at positions pad .. pad + n - 1)."""
    if isinstance(pad, bool) or not isinstance(pad, int) or pad < 1:
        raise ValueError(f"pad must be a whole number >= 1 (tokens of left padding), got {pad!r}")
    m = model()
    ids = m.encode(text)
    n = len(ids)
    pad_id = m.tokenizer.token_to_id(pad_token)
    padded = [pad_id] * pad + ids
    mask = batch_mask([n], pad + n, causal=True, side="left")[0]
    shifted = np.concatenate([np.zeros(pad, dtype=int), np.arange(n)])
    reference = m.logits(ids)
    ways = {
        "correct": m.logits(padded, mask, shifted),
        "no_mask": m.logits(padded, None, shifted),
        "not_shifted": m.logits(padded, mask, None),
    }
    out = {"reference_top": m.token(int(reference[-1].argmax())), "n": n, "pad": pad}
    for name, logits in ways.items():
        real = logits[pad:]
        out[name] = {"gap": gap(real, reference), "top": m.token(int(real[-1].argmax()))}
    return out


@functools.lru_cache(maxsize=2)
def bidirectional(text, n):  # -> dict
    """Return the mean next-token loss and top-1 accuracy of positions 0 .. n - 2 under the causal and the full mask,
    and how often the full mask's top token is the token the position itself holds."""
    m, ids = model(), passage_ids(text, n)
    out = {}
    for name, mask in (("causal", None), ("full", full_mask(n))):
        logits = m.logits(ids, mask)
        top = logits[:-1].argmax(axis=1)
        out[name] = {
            "loss": float(next_token_losses(logits, ids).mean()),
            "top1": float((top == np.asarray(ids[1:])).mean()),
            "own": float((top == np.asarray(ids[:-1])).mean()),
        }
    return out


@functools.lru_cache(maxsize=2)
def cache_gap(text, n, prompt):  # -> dict
    """Return the largest gap between the logits of a cached decode (a prompt, then one token at a time reading the
    KV cache) and the full causal pass over the same n tokens."""
    m, ids = model(), passage_ids(text, n)
    full = m.logits(ids)
    rows, _, past = m.forward(ids[:prompt])
    steps = [rows]
    for token in ids[prompt:]:
        row, _, past = m.forward([token], past=past)
        steps.append(row)
    cached = np.concatenate(steps)
    return {"steps": n - prompt, "gap": gap(cached, full), "max_logit": float(np.abs(full).max())}


def attention_layer(layer, dtype, mask=None):  # -> (f: x [n, d] -> [n, d], step: () -> (x_t [d] -> y_t [d]))
    """Return one of the model's attention layers (its norm, rotary positions, grouped heads, output matrix) computed
    in dtype: as a function of its input rows under mask (None: the causal mask), and as a fresh decoder reading a
    KV cache."""
    m = model()
    weights = {k: v.astype(dtype) for k, v in m.params["layers"][layer].items()}

    def f(x):
        x = x.astype(dtype)
        n = len(x)
        h = rms_norm(x, weights["attn_norm"], m.eps)
        return self_attention(h, weights, m.cfg, causal_mask(n) if mask is None else mask, np.arange(n), m.theta)[0]

    def step():
        past = []  # the (k, v) read so far, [h_kv, t, d_head] each

        def decode(x_t):
            t = past[0][0].shape[1] if past else 0
            h = rms_norm(x_t[None].astype(dtype), weights["attn_norm"], m.eps)
            y, _, kv = self_attention(
                h, weights, m.cfg, np.ones((1, t + 1), bool), np.array([t]), m.theta, past[0] if past else None
            )
            past[:] = [kv]
            return y[0]

        return decode

    return f, step


@functools.lru_cache(maxsize=2)
def kit_on_layer(layer, n):  # -> {(check, setting): [Problem]}
    """Return what check_causal and check_cache find in one real attention layer: in float64 and float32 with the
    tolerance the kit takes from the output's dtype, and in float32 held to float64's tolerance (1e-9)."""
    d = model().cfg.d_model
    out = {}
    for dtype, tol in (("float64", None), ("float32", None), ("float32", 1e-9)):
        f, step = attention_layer(layer, np.dtype(dtype))
        setting = dtype if tol is None else f"{dtype}, tol={tol:g}"
        out["check_causal", setting] = check_causal(f, n=n, d=d, tol=tol)
        out["check_cache", setting] = check_cache(step, f, n=n, d=d, tol=tol)
    return out


@functools.lru_cache(maxsize=2)
def kit_masks_on_layer(layer, window, sinks, doc_ids):  # doc_ids: tuple of n ids -> {(check, setting): [Problem]}
    """Return what check_mask finds in one real attention layer, in float64, under the chapter's own masks: a window
    with sinks, and documents packed in one row (n = len(doc_ids) rows)."""
    d, n = model().cfg.d_model, len(doc_ids)
    masks = {
        f"window_mask({n}, {window}, sinks={sinks})": window_mask(n, window, sinks=sinks),
        f"document_mask({list(doc_ids)})": document_mask(doc_ids),
    }
    out = {}
    for name, mask in masks.items():
        f, _ = attention_layer(layer, np.dtype("float64"), mask)
        out["check_mask", f"float64, {name}"] = check_mask(f, mask, d=d)
    return out

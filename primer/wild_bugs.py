"""Mask bugs that public projects shipped, each reproduced in a few lines of numpy, with its fix.

Every reproduction is self-attention with q = k = v = x (no weights), so the only thing that can go
wrong is the mask. The functions take the mask checks' signatures (primer.mask_checks): a causal
layer maps x [n, d] to y [n, d]; a padded layer maps (x [n, d], valid [n] bool) to y [n, d]; a
cached decoder is a factory whose result is called with one row x_t [d] at a time.

The buggy functions are written as the projects wrote them, in plain numpy: a row whose scores are
all -inf gives NaN here, as it did there. primer's own masked_softmax refuses such a row instead.
"""

from dataclasses import dataclass

import numpy as np

from primer._checks import float_array, positive_int
from primer.mask_checks import check_cache, check_causal, check_padding
from primer.masks import causal_mask, window_mask

GPT2_MASKED_BIAS = -1e4  # what transformers' GPT-2 put in place of a closed score until PR #17306
DI_ENGINE_FILL = -1e9  # DI-engine's fill for a padded key
HYUNWOONGKO_FILL = -10000.0  # hyunwoongko/transformer's fill for a closed score
FP16_MIN = float(np.finfo(np.float16).min)  # -65504: the most negative finite FP16 number


def _softmax(z):  # [..., n] -> [..., n]
    """Return the row softmax as the projects computed it: a row that is all -inf (or holds NaN) gives NaN."""
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.exp(z - z.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True)


def safe_softmax(scores, mask):  # [..., n], [..., n] bool -> [..., n]
    """Return the masked row softmax, a row with no open key given weight 0 everywhere (PyTorch 2.5's SDPA)."""
    empty = ~mask.any(axis=-1, keepdims=True)
    return np.where(empty, 0.0, _softmax(np.where(mask | empty, scores, -np.inf)))


def _scores(x):  # [n, d] -> [n, n]
    return x @ x.T / np.sqrt(x.shape[-1])


def _mix(w, x):  # [n, n], [n, d] -> [n, d]
    """Return w @ x as a framework computes it: a NaN in x spreads even where its weight is 0 (0 * NaN = NaN)."""
    with np.errstate(invalid="ignore"):
        return np.einsum("ij,jd->id", w, x)


# ---- 1. fill: GPT-2's -1e4 in place of a closed score (transformers #17121, minGPT #75) -------------


def masked_bias_bug(x, shift=0.0):  # [n, d] -> [n, d]
    """Causal attention whose closed scores are replaced by -1e4; shift moves every score, as training may."""
    z = np.where(causal_mask(len(x)), _scores(x) + shift, GPT2_MASKED_BIAS)
    return _softmax(z) @ x


def masked_bias_fix(x, shift=0.0):  # [n, d] -> [n, d]
    """The fix of PR #17306: the dtype's most negative number in place of a closed score."""
    z = np.where(causal_mask(len(x)), _scores(x) + shift, np.finfo(float).min)
    return _softmax(z) @ x


# ---- 2. dtype: FP16's most negative number plus a score is -inf (transformers PR #17306) ------------


def _left_padded(layer, x, valid):  # [n, d], [n] -> [n, d]
    """Run layer with the padded rows moved to the front, as batched generation pads; return rows in x's order."""
    order = np.argsort(valid, kind="stable")  # padded rows (False) first, each group in its own order
    y = np.empty_like(x, dtype=float)
    y[order] = layer(x[order], valid[order])
    return y


def _fp16_layers(x, valid, shift, fixed):  # [n, d], [n] -> [n, d] two causal FP16 layers
    n = len(x)
    mask = causal_mask(n) & valid[None, :]
    if fixed:
        mask = np.where(valid[:, None], mask, np.eye(n, dtype=bool))  # a padded query reads itself
    h = x.astype(np.float16)
    for _ in range(2):
        s = (_scores(h) + np.float16(shift)).astype(np.float16)
        if fixed:  # the minimum put in place of a closed score: nothing is added to it, nothing overflows
            z = np.where(mask, s, np.float16(FP16_MIN))
        else:  # the minimum added to a closed score: below -16 the sum rounds to -inf in FP16
            with np.errstate(over="ignore"):
                z = s + np.where(mask, 0, FP16_MIN).astype(np.float16)
        h = _mix(_softmax(z.astype(np.float16)).astype(np.float16), h)
    return h.astype(float)


def fp16_min_bug(x, valid, shift=0.0):  # [n, d], [n] -> [n, d]
    """Two causal FP16 layers, left-padded, that add finfo(float16).min to every closed score."""
    return _left_padded(lambda x, v: _fp16_layers(x, v, shift, fixed=False), x, valid)


def fp16_min_fix(x, valid, shift=0.0):  # [n, d], [n] -> [n, d]
    """The same layers with the minimum in place of a closed score, and a padded query reading itself."""
    return _left_padded(lambda x, v: _fp16_layers(x, v, shift, fixed=True), x, valid)


# ---- 3. orientation: PyTorch 1.3's generate_square_subsequent_mask came out transposed (#28272) -------


def transposed_bug(x):  # [n, d] -> [n, d]
    """Causal attention under the transposed mask PyTorch 1.3 returned: query i reads keys i .. n-1."""
    z = np.where(causal_mask(len(x)).T, _scores(x), -np.inf)
    return _softmax(z) @ x


def transposed_fix(x):  # [n, d] -> [n, d]
    """Causal attention under the lower-triangular mask: query i reads keys 0 .. i."""
    z = np.where(causal_mask(len(x)), _scores(x), -np.inf)
    return _softmax(z) @ x


# ---- 4. orientation: a "True = closed" mask handed to SDPA, where True = may read (LLMs-from-scratch #1062)


def sdpa(q, k, v, attn_mask):  # [n_q, d], [n_k, d], [n_k, d_v], [n_q, n_k] bool -> [n_q, d_v]
    """Return what PyTorch 2.5+ SDPA returns for a bool attn_mask (True: may read); an empty row gives zeros."""
    return safe_softmax(q @ k.T / np.sqrt(q.shape[-1]), attn_mask) @ v


def not_inverted_bug(x):  # [n, d] -> [n, d]
    """Pass SDPA the mask of the future keys (True above the diagonal), as if True meant closed."""
    future = np.triu(np.ones((len(x), len(x)), dtype=bool), k=1)
    return sdpa(x, x, x, future)


def not_inverted_fix(x):  # [n, d] -> [n, d]
    """Invert it first: SDPA's True means may read."""
    future = np.triu(np.ones((len(x), len(x)), dtype=bool), k=1)
    return sdpa(x, x, x, ~future)


# ---- 5. padding: masked_fill without the underscore, its result thrown away (DI-engine #333) ---------


def not_in_place_bug(x, valid):  # [n, d], [n] -> [n, d]
    """Attention whose padding mask is computed and dropped, as score.masked_fill(...) without assignment."""
    score = _scores(x)
    np.where(~valid[None, :], DI_ENGINE_FILL, score)  # a new array, never used: score is unchanged
    return _softmax(score) @ x


def not_in_place_fix(x, valid):  # [n, d], [n] -> [n, d]
    """Fill in place (masked_fill_), so the padded keys really are closed."""
    score = _scores(x)
    score[~np.broadcast_to(valid[None, :], score.shape)] = DI_ENGINE_FILL
    return _softmax(score) @ x


# ---- 6. padding: the mask on the query axis (hyunwoongko/transformer PR #40) -------------------------
# The project's decoder mask is trg_pad_mask & trg_sub_mask: the padding mask shaped (batch, 1, seq, 1), so on the
# query axis, AND the causal tril. A real query then never reaches a pad (the pads come last); what the shape does
# is close every key of a padded query's row. Its fill, -10000, turns such a row uniform; -inf turns it into NaN.


def query_axis_bug(x, valid, fill=-np.inf):  # [n, d], [n] -> [n, d]
    """Causal attention ANDed with the padding mask shaped [n, 1], as the project built it: padded rows are empty."""
    z = np.where(valid[:, None] & causal_mask(len(x)), _scores(x), fill)
    return _softmax(z) @ x


def query_axis_fix(x, valid, fill=-np.inf):  # [n, d], [n] -> [n, d]
    """Shape it [1, n], as PR #40 does: padded keys closed, and a padded query still reads the real keys before it."""
    z = np.where(valid[None, :] & causal_mask(len(x)), _scores(x), fill)
    return _softmax(z) @ x


def query_axis_shipped(x, valid):  # [n, d], [n] -> (int, float)
    """Return the rows holding NaN, and the largest weight a real query puts on padding, with the project's -10000."""
    valid = np.asarray(valid, dtype=bool)
    w = _softmax(
        np.where(valid[:, None] & causal_mask(len(x)), _scores(float_array("x", x, min_ndim=2)), HYUNWOONGKO_FILL)
    )
    nan_rows = int(np.isnan(w @ x).any(axis=1).sum())
    return nan_rows, float(np.where(~valid[None, :], w, 0.0).sum(axis=1)[valid].max())


# ---- 7. padding: a padded query with no open key gives NaN, which spreads (pytorch #103749) ----------


def nan_rows_bug(x, valid):  # [n, d], [n] -> [n, d]
    """Two layers under a padding mask on both axes, with SDPA before 2.5: a padded query's empty row is NaN."""
    mask = valid[:, None] & valid[None, :]
    h = x
    for _ in range(2):
        h = _mix(_softmax(np.where(mask, _scores(h), -np.inf)), h)
    return h


def nan_rows_fix(x, valid):  # [n, d], [n] -> [n, d]
    """The same layers with PyTorch 2.5's rule: an empty row gives zeros, not NaN."""
    mask = valid[:, None] & valid[None, :]
    h = x
    for _ in range(2):
        h = sdpa(h, h, h, mask)
    return h


# ---- 8. cache: is_causal on a cached step is aligned top-left (pytorch #144858) ----------------------


def _cached_decoder(reads):  # reads(t) -> [t] bool: which of the t cached keys the newest query reads
    def step():
        cache = []

        def call(x_t):  # [d] -> [d]
            cache.append(np.asarray(x_t, dtype=float))
            k = np.stack(cache)
            return sdpa(k[-1:], k, k, reads(len(cache))[None, :])[0]

        return call

    return step


def top_left_bug():  # -> a fresh decoder
    """Return a cached decoder that builds its one-row mask as is_causal does: top-left, key 0 only."""
    return _cached_decoder(lambda t: np.tri(1, t, dtype=bool)[0])()


def top_left_fix():  # -> a fresh decoder
    """Return a cached decoder whose one query reads every cached key: causal_mask(1, t), bottom-right."""
    return _cached_decoder(lambda t: causal_mask(1, t)[0])()


def causal_full(x):  # [n, d] -> [n, d]
    """Return the full pass the cached decoders must match: causal attention over every row at once."""
    return sdpa(x, x, x, causal_mask(len(x)))


# ---- 9. window: one key too many (transformers #39408, fixed by PR #40163) ---------------------------


def window_step(window):  # -> a fresh decoder
    """Return a decoder whose cache keeps the window most recent rows: what a sliding-window cache holds."""
    window = positive_int("window", window)
    return _cached_decoder(lambda t: np.arange(t) >= t - window)()


def window_full_bug(x, window):  # [n, d] -> [n, d]
    """Full pass reading window + 1 keys, as the flash-attention path did before 4.56.0."""
    return sdpa(x, x, x, window_mask(len(x), window + 1))


def window_full_fix(x, window):  # [n, d] -> [n, d]
    """Full pass reading the window most recent keys, itself included."""
    return sdpa(x, x, x, window_mask(len(x), window))


# ---- the bugs, and what each does -------------------------------------------------------------------


@dataclass(frozen=True)
class Bug:
    """One reproduced bug: its family, the kit check that finds it, and the measure the page prints."""

    name: str
    family: str  # fill, dtype, orientation, padding, cache, window
    check: str  # causal, padding, cache: which of primer.mask_checks' checks runs it
    measure: str  # closed_share, future_share, pad_share, nan_rows, cache_gap, keys_read
    side: str = "both"  # where check_padding pads: the project's own side where the bug is about its padding


BUGS = {
    b.name: b
    for b in (
        Bug("masked_bias", "fill", "causal", "closed_share"),
        Bug("fp16_min", "dtype", "padding", "nan_rows"),
        Bug("transposed", "orientation", "causal", "future_share"),
        Bug("not_inverted", "orientation", "causal", "future_share"),
        Bug("not_in_place", "padding", "padding", "pad_share"),
        Bug("query_axis", "padding", "padding", "nan_rows", side="right"),  # its targets were padded at the end
        Bug("nan_rows", "padding", "padding", "nan_rows"),
        Bug("top_left", "cache", "cache", "cache_gap"),
        Bug("window", "window", "cache", "cache_gap"),
    )
}
FAMILIES = ("fill", "dtype", "orientation", "padding", "cache", "window")


def _bug(name):
    if name not in BUGS:
        raise ValueError(f"name must be one of {tuple(BUGS)}, got {name!r}")
    return BUGS[name]


def layers(name, *, shift=0.0, window=2):  # -> (buggy, fixed), each with the kit's signature for the bug's check
    """Return the buggy and the fixed layer of bug `name`, ready for its check in primer.mask_checks.

    causal and padding bugs give two functions; cache bugs give two (step, full) pairs. shift is
    the constant every score moves by (masked_bias, fp16_min); window is the window of the window bug.
    """
    _bug(name)
    shift = float(shift)
    pick = {
        "masked_bias": (lambda x: masked_bias_bug(x, shift), lambda x: masked_bias_fix(x, shift)),
        "fp16_min": (lambda x, v: fp16_min_bug(x, v, shift), lambda x, v: fp16_min_fix(x, v, shift)),
        "transposed": (transposed_bug, transposed_fix),
        "not_inverted": (not_inverted_bug, not_inverted_fix),
        "not_in_place": (not_in_place_bug, not_in_place_fix),
        "query_axis": (query_axis_bug, query_axis_fix),
        "nan_rows": (nan_rows_bug, nan_rows_fix),
        "top_left": ((top_left_bug, causal_full), (top_left_fix, causal_full)),
        "window": (
            (lambda: window_step(window), lambda x: window_full_bug(x, window)),
            (lambda: window_step(window), lambda x: window_full_fix(x, window)),
        ),
    }
    return pick[name]


def checked(name, *, n=8, d=4, n_pad=3, seed=0, shift=0.0, window=2):  # -> ([problems] buggy, [problems] fixed)
    """Return what bug `name`'s check in primer.mask_checks finds in its buggy and in its fixed layer."""
    pair = layers(name, shift=shift, window=window)
    check = BUGS[name].check
    if check == "causal":
        return tuple(check_causal(f, n=n, d=d, seed=seed) for f in pair)
    if check == "padding":
        return tuple(check_padding(f, n=n, d=d, n_pad=n_pad, seed=seed, side=BUGS[name].side) for f in pair)
    mask = window_mask(n, window) if name == "window" else None  # what the full pass must read: check_cache judges it
    return tuple(check_cache(step, full, n=n, d=d, seed=seed, mask=mask) for step, full in pair)


# ---- the symptoms the page prints ---------------------------------------------------------------------


def _weights(name, x, valid, shift, fixed):  # -> [n, n] the first layer's attention weights
    n, s = len(x), _scores(x)
    future = np.triu(np.ones((n, n), dtype=bool), k=1)
    if name == "masked_bias":
        return _softmax(np.where(causal_mask(n), s + shift, np.finfo(float).min if fixed else GPT2_MASKED_BIAS))
    if name == "transposed":
        return _softmax(np.where(causal_mask(n) if fixed else causal_mask(n).T, s, -np.inf))
    if name == "not_inverted":
        return safe_softmax(s, ~future if fixed else future)
    return _softmax(np.where(valid[None, :], s, DI_ENGINE_FILL) if fixed else s)  # not_in_place


def _closed_share(w, closed, rows):  # [n, n], [n, n] bool, [n] bool -> float
    """Return the largest share of weight one of the given rows puts on keys it must not read."""
    return float(np.where(closed, w, 0.0).sum(axis=1)[rows].max())


def symptom(name, x, *, valid=None, shift=0.0, window=2):  # [n, d] -> (buggy, fixed)
    """Return what bug `name` does to x, buggy and fixed, in the unit of its measure.

    closed_share, future_share: the largest share of weight a row gives to keys the causal mask
    closes; pad_share: the largest share a real query gives to padded keys; nan_rows: how many
    output rows hold NaN; cache_gap: the largest |difference| between the cached decoder's rows and
    the full pass's.
    """
    bug = _bug(name)
    x = float_array("x", x, min_ndim=2)
    n = len(x)
    if bug.check == "padding":
        valid = np.asarray(valid)
        if valid.dtype != bool or valid.shape != (n,) or not valid.any():
            raise ValueError(f"valid must be a bool array of shape ({n},) with at least one True (a real token)")
    buggy, fixed = layers(name, shift=shift, window=window)
    if bug.measure in ("closed_share", "future_share", "pad_share"):
        if bug.measure == "pad_share":
            closed, rows = np.broadcast_to(~valid[None, :], (n, n)), valid
        else:
            closed, rows = ~causal_mask(n), np.ones(n, dtype=bool)
        return tuple(_closed_share(_weights(name, x, valid, float(shift), f), closed, rows) for f in (False, True))
    if bug.measure == "nan_rows":
        return tuple(int(np.isnan(f(x, valid)).any(axis=1).sum()) for f in (buggy, fixed))
    gaps = []
    for step, full in (buggy, fixed):
        decoder = step()
        cached = np.stack([decoder(row) for row in x])
        gaps.append(float(np.abs(cached - full(x)).max()))
    return tuple(gaps)


def keys_read(name, n, *, window=2):  # -> (buggy, fixed) keys the last query reads
    """Return how many keys the last of n queries reads in the full pass of a cache bug, buggy and fixed."""
    if _bug(name).check != "cache":
        raise ValueError(f"name must be a cache bug, one of {tuple(b for b in BUGS if BUGS[b].check == 'cache')}")
    n = positive_int("n", n)
    if name == "top_left":
        return 1, n  # is_causal top-left: one query, key 0 only; bottom-right: all n
    return int(window_mask(n, window + 1)[-1].sum()), int(window_mask(n, window)[-1].sum())

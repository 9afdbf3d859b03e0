"""The notebooks' exercises: run the reader's function against primer's on random and edge-case inputs.

`check(name, fn)` prints, in the notebook's language (primer.language.page_lang, set by `use_language`), that fn
passed, or the first input where it differs and how; a stub (raising NotImplementedError or
returning None) gets "not yet". Each exercise's reference is primer's own function.
"""

import os
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from primer import counts, machines, masks
from primer.attention import attention
from primer.backprop import softmax_backward
from primer.config import Config
from primer.decoding import temperature_softmax, top_k_filter, top_p_filter
from primer.encoder_decoder import two_stack_layout
from primer.kv_cache import decode_step
from primer.language import LANGS, labels, page_lang  # noqa: F401  (labels, page_lang: for the notebooks)
from primer.machines import machine_for
from primer.position import sinusoidal_encoding
from primer.published import MODELS
from primer.rnn import rnn_forward
from primer.scores import additive_score, scaled_dot_score
from primer.self_cross_heads import merge_heads, split_heads
from primer.seq2seq import bahdanau_attention
from primer.softmax import masked_softmax, softmax
from primer.targets import next_token_pairs
from primer.wild_bugs import FP16_MIN, masked_bias_fix

CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Sans CJK JP",
    "Source Han Sans SC",
    "Microsoft YaHei",
    "PingFang SC",
    "WenQuanYi Zen Hei",
    "SimHei",
)  # whichever is installed draws the Chinese labels
CJK_FILES = ("cjk", "sourcehan", "msyh", "pingfang", "wqy", "simhei")  # their files' names, lower case
TOL = 1e-9  # float answers: two correct formulas differ by rounding, far below this


def use_language(lang):
    """Set the notebook's language (zh or en) for the checks and figure labels; in zh, give matplotlib a CJK font."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    os.environ["PRIMER_LANG"] = lang
    import matplotlib
    from matplotlib import font_manager

    installed = {f.name for f in font_manager.fontManager.ttflist}
    if lang == "zh" and not installed & set(CJK_FONTS):  # installed after matplotlib cached its font list
        for path in font_manager.findSystemFonts():
            if any(part in os.path.basename(path).lower() for part in CJK_FILES):
                font_manager.fontManager.addfont(path)
        installed = {f.name for f in font_manager.fontManager.ttflist}
    cjk = [name for name in CJK_FONTS if name in installed] if lang == "zh" else []
    matplotlib.rcParams["font.family"] = [
        "DejaVu Sans",
        *cjk,
    ]  # per-glyph fallback: Latin from DejaVu, Chinese from CJK


def _t(key, **kw):
    return labels("exercises")[key].format(**kw)


# ---- comparing an answer with primer's ----------------------------------------------------------


def _shape(got, want):
    got = np.asarray(got)
    return None if got.shape == want.shape else _t("shape", got=got.shape, want=want.shape)


def same_mask(got, want):
    """Return why the bool mask got differs from want, or None."""
    if (why := _shape(got, want)) is not None:
        return why
    got = np.asarray(got)
    if got.dtype != bool:
        return _t("dtype", got=got.dtype)
    for i, j in zip(*np.nonzero(got != want)):
        return _t("opens" if got[i, j] else "closes", i=int(i), j=int(j))
    return None


def same_array(got, want):
    """Return why the float array got differs from want (shape, NaN, first far value), or None."""
    try:
        got = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return _t("type", got=type(got).__name__, want="ndarray")
    if (why := _shape(got, want)) is not None:
        return why
    if not np.all(np.isfinite(got)):
        return _t("nan")
    far = np.abs(got - want) > TOL * (1 + np.abs(want))
    for at in zip(*np.nonzero(far)):
        at = tuple(int(a) for a in at)
        return _t("value", at=at if len(at) > 1 else at[0], got=got[at], want=want[at])
    return None


def same_weights(got, want, mask=None):
    """Return why weights got differ: shape, NaN, a closed key's weight not 0, a row not summing to 1, a value."""
    if (why := _shape(got, want)) is not None:
        return why
    got = np.asarray(got, dtype=float)
    if not np.all(np.isfinite(got)):
        return _t("nan")
    rows = got.reshape(-1, got.shape[-1])
    if mask is not None:
        closed = ~np.broadcast_to(mask, got.shape).reshape(rows.shape)
        for i, j in zip(*np.nonzero(closed & (rows != 0))):
            return _t("masked_weight", i=int(i), j=int(j), w=rows[i, j])
    sums = rows.sum(axis=-1)
    for i in np.nonzero(np.abs(sums - 1) > 1e-6)[0]:
        return _t("row_sum", i=int(i), s=sums[i])
    return same_array(got, want)


def same_value(got, want):
    """Return why got is not equal to want (ints, strings, lists), or None."""
    if (
        isinstance(want, (int, np.integer))
        and not isinstance(got, (int, np.integer))
        or isinstance(got, bool) != isinstance(want, bool)
    ):
        return _t("type", got=type(got).__name__, want=type(want).__name__)
    if isinstance(want, (list, tuple)):
        got = list(got) if isinstance(got, (list, tuple)) else got
        want = list(want)
    return None if got == want else _t("equal", got=got, want=want)


def same_parts(compare):
    """Return a comparison of tuples, part by part, each with compare (None parts must be None)."""

    def parts(got, want):
        if not isinstance(got, tuple) or len(got) != len(want):
            return _t("type", got=type(got).__name__, want=f"tuple of {len(want)}")
        for k, (g, w) in enumerate(zip(got, want)):
            why = same_value(g, None) if w is None else compare(g, w)
            if why is not None:
                return _t("part", k=k, why=why)
        return None

    return parts


# ---- the exercises ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Exercise:
    """One exercise: primer's answer, the inputs it is checked on, and how two answers are compared."""

    reference: Callable
    cases: Callable  # () -> list of keyword-argument dicts, random and edge cases
    compare: Callable = same_array
    weights_of: str | None = None  # compare with same_weights, reading the mask from this argument


def _rng():
    return np.random.default_rng(20240601)  # the same inputs on every run


def _sizes(*extra):
    return [dict(n=n) for n in (1, 2, 3, 5, 8, *extra)]


def _windows():
    return [dict(n=n, window=w) for n, w in ((1, 1), (4, 1), (5, 2), (6, 3), (4, 4), (3, 7), (8, 5))]


def _softmax_rows():
    r = _rng()
    return [
        dict(x=np.array([0.0])),
        dict(x=np.array([1000.0, 1001.0, 1002.0])),
        dict(x=np.array([-1000.0, -1000.5])),
        dict(x=r.normal(size=(3, 5))),
        dict(x=r.normal(size=(2, 3, 4)) * 30),
    ]


def _masked_scores():
    r, out = _rng(), []
    for n_q, n_k in ((1, 1), (3, 3), (4, 6), (5, 5)):
        s = r.normal(size=(n_q, n_k)) * 3
        out.append(dict(scores=s, mask=masks.causal_mask(n_q, n_k)))
    out.append(
        dict(scores=np.array([[50.0, 0.0, -50.0]] * 2), mask=np.array([[True, False, False], [False, True, True]]))
    )
    return out


def _softmax_grads():
    r, out = _rng(), []
    for shape in ((1, 1), (3, 3), (5, 5), (2, 4, 4)):
        w = masked_softmax(r.normal(size=shape) * 2, masks.causal_mask(shape[-1]))  # closed weights are exactly 0
        out.append(dict(dw=r.normal(size=shape), w=w))
    out.append(
        dict(dw=np.array([[1.0, 5.0, -2.0]]), w=np.array([[0.5, 0.0, 0.5]]))
    )  # a closed key's upstream gradient is ignored
    return out


def _qkv_mask():
    r, out = _rng(), []
    for n_q, n_k, d in ((1, 1, 2), (3, 3, 4), (4, 6, 3)):
        out.append(
            dict(
                q=r.normal(size=(n_q, d)),
                k=r.normal(size=(n_k, d)),
                v=r.normal(size=(n_k, 2)),
                mask=masks.causal_mask(n_q, n_k),
            )
        )
    out.append(dict(q=r.normal(size=(5, 4)), k=r.normal(size=(5, 4)), v=r.normal(size=(5, 3)), mask=masks.full_mask(5)))
    return out


def _qk():
    r = _rng()
    return [
        dict(q=r.normal(size=(n_q, d)), k=r.normal(size=(n_k, d)))
        for n_q, n_k, d in ((1, 1, 1), (3, 4, 16), (5, 2, 64))
    ]


def _additive():
    r, out = _rng(), []
    for n_q, n_k, d_q, d_k, a in ((1, 1, 1, 1, 1), (3, 4, 2, 5, 3), (2, 6, 4, 4, 8)):
        out.append(
            dict(
                q=r.normal(size=(n_q, d_q)),
                k=r.normal(size=(n_k, d_k)),
                w_q=r.normal(size=(d_q, a)),
                w_k=r.normal(size=(d_k, a)),
                v=r.normal(size=a),
            )
        )
    return out


def _bahdanau():
    return [dict(s=c["q"], h=c["k"], w_s=c["w_q"], w_h=c["w_k"], v=c["v"]) for c in _additive()]


def _rnn():
    r, out = _rng(), []
    for t, d, d_in in ((1, 1, 1), (4, 3, 2), (10, 8, 3)):
        out.append(
            dict(
                x=r.normal(size=(t, d_in)),
                w=r.normal(size=(d, d)) * 0.5,
                u=r.normal(size=(d, d_in)),
                b=r.normal(size=d),
            )
        )
    out.append(dict(x=np.zeros((3, 2)), w=np.eye(2), u=np.ones((2, 2)), b=np.zeros(2)))
    return out


def _logits_and_targets():
    r = _rng()
    return [
        dict(z=np.array([[0.0]]), y=np.array([0])),
        dict(z=r.normal(size=(4, 5)), y=np.array([0, 4, 2, 2])),
        dict(z=np.array([[1000.0, 0.0, -1000.0]]), y=np.array([2])),
    ]


def _split():
    r = _rng()
    return [dict(x=r.normal(size=(n, h * d)), h=h) for n, h, d in ((1, 1, 1), (3, 2, 4), (5, 4, 2), (2, 3, 1))]


def _merge():
    r = _rng()
    return [dict(x=r.normal(size=(h, n, d))) for n, h, d in ((1, 1, 1), (3, 2, 4), (5, 4, 2), (2, 3, 1))]


def _sinusoid():
    return [dict(n=n, d=d) for n, d in ((1, 2), (4, 8), (50, 16), (3, 64))]


def _tokens():
    return [
        dict(tokens=t, bos=b) for t in (["a", "b"], "the cat sat on the mat".split(), [7, 7, 3]) for b in (None, "<s>")
    ]


def _reads_future():
    r = _rng()
    return [
        dict(mask=m)
        for m in (
            masks.causal_mask(1),
            masks.full_mask(1),
            masks.causal_mask(4),
            masks.full_mask(3),
            masks.window_mask(5, 2),
            r.random((5, 5)) < 0.5,
            np.eye(4, dtype=bool),
            np.eye(4, k=1, dtype=bool) | np.eye(4, dtype=bool),
        )
    ]


def _rectangles():
    return [dict(n=n, m=m) for n, m in ((1, 1), (3, 5), (4, 2), (6, 6))]


def _two_stacks():
    return [dict(n_source=m, n_target=n) for m, n in ((1, 1), (3, 2), (2, 4), (5, 5))]


def _machines():
    return [dict(machine=k, n=n, m=m) for k in machines.MACHINES for n, m in ((1, 1), (3, 4), (5, 2))]


def _choices():
    return [dict(writes_tokens=a, reads_separate_input=b) for a in (True, False) for b in (True, False)]


def _decode_steps():
    r, out = _rng(), []
    for t, d, d_k, d_v in ((0, 2, 1, 1), (1, 4, 2, 3), (5, 8, 4, 4)):
        out.append(
            dict(
                x_new=r.normal(size=d),
                k_cache=r.normal(size=(t, d_k)),
                v_cache=r.normal(size=(t, d_v)),
                w_q=r.normal(size=(d, d_k)),
                w_k=r.normal(size=(d, d_k)),
                w_v=r.normal(size=(d, d_v)),
            )
        )
    return out


def _cached_sizes():
    return [dict(n_q=n_q, n_k=n_k) for n_q, n_k in ((1, 1), (1, 5), (2, 5), (3, 3), (4, 9))]


def _kv_shapes():
    return [
        dict(n_layers=n_l, n_kv_heads=h, d_head=d, n_tokens=t, batch=b, bytes_per_value=p)
        for n_l, h, d, t, b, p in (
            (1, 1, 1, 0, 1, 1),
            (4, 2, 8, 10, 1, 2),
            (32, 32, 128, 4096, 1, 2),
            (80, 8, 128, 4096, 8, 2),
            (12, 12, 64, 1024, 4, 4),
        )
    ]


def _kv_models():
    return [dict(cfg=m.config, n_tokens=t) for m in MODELS.values() for t in (0, 1, 4096, 32_768)]


def _kv_bytes(n_layers, n_kv_heads, d_head, n_tokens, batch, bytes_per_value):
    cfg = Config(d_model=n_kv_heads * d_head, n_heads=n_kv_heads, n_layers=n_layers)
    return counts.kv_cache_bytes(cfg, n_tokens, batch=batch, bytes_per_value=bytes_per_value)


def _vocab_probs():
    r = _rng()
    p = r.random(8)
    return [np.array([1.0]), np.array([0.5, 0.5]), np.array([0.1, 0.2, 0.3, 0.4]), p / p.sum(), np.array([0.25] * 4)]


def _temperatures():
    r = _rng()
    return [
        dict(logits=z, temperature=t)
        for z in (np.array([0.0]), r.normal(size=6), np.array([500.0, 0.0, -500.0]))
        for t in (0.1, 1.0, 5.0)
    ]


def _top_p():
    return [dict(probs=p, p=q) for p in _vocab_probs() for q in (0.05, 0.3, 0.5, 0.9, 1.0)]


def _top_k():
    return [dict(probs=p, k=k) for p in _vocab_probs() for k in range(1, p.size + 1)]


def _prefix():
    return [dict(n_patches=p, n_text=t) for p, t in ((1, 1), (4, 5), (2, 1), (3, 6))]


def _prefix_reads(n_patches, n_text):
    n = n_patches + n_text
    return (
        masks.causal_mask(n) | (np.arange(n) < n_patches)[None, :]
    )  # every row reads every patch, through the encoder


def _cross_maps():
    r = _rng()
    cases = []
    for layers, heads, n, m in ((1, 1, 1, 1), (2, 2, 6, 6), (2, 2, 7, 7), (1, 3, 4, 5)):
        w = r.random((layers, heads, n, m))
        cases.append(dict(weights=w / w.sum(axis=-1, keepdims=True), gold=r.integers(0, m, n)))
    return cases


def _self_attention_x():
    r = _rng()
    return [
        dict(x=r.normal(size=(n, d)), mask=m)
        for n, d, m in ((1, 2, masks.full_mask(1)), (4, 3, masks.causal_mask(4)), (6, 8, _prefix_reads(2, 4)))
    ]


def _bug_rows():
    r = _rng()
    return [dict(x=r.normal(size=(n, 4)), shift=s) for n in (1, 3, 6) for s in (0.0, -15000.0)]


def _bug_sizes():
    return [dict(n=n) for n in (1, 2, 4, 7)]


def _bug_valid():
    return [dict(valid=v) for v in (np.array([True]), np.array([True, True, False]), np.arange(6) < 4)]


def _bug_pad_scores():
    r = _rng()
    return [dict(scores=r.normal(size=(len(c["valid"]),) * 2), **c) for c in _bug_valid()]


def _bug_fp16():
    r = _rng()
    out = []
    for n, shift in ((2, -30.0), (4, 0.0), (5, -20.0)):
        valid = np.arange(n) >= 1  # one pad on the left
        out.append(dict(scores=r.normal(size=(n, n)) + shift, mask=masks.causal_mask(n) & valid[None, :]))
    return out


def _bug_empty_rows():
    r = _rng()
    rows = [np.array([[True, False], [False, False]]), np.eye(3, dtype=bool), np.zeros((2, 4), dtype=bool)]
    return [dict(scores=r.normal(size=m.shape), mask=m) for m in rows]


def _bug_cached():
    return [dict(t=t) for t in (1, 2, 5)]


def _safe_softmax(scores, mask):
    empty = ~mask.any(axis=-1, keepdims=True)
    z = np.where(mask | empty, scores, -np.inf)
    e = np.exp(z - z.max(axis=-1, keepdims=True))
    return np.where(empty, 0.0, e / e.sum(axis=-1, keepdims=True))


EXERCISES = {
    "rnn_forward": Exercise(lambda x, w, u, b: rnn_forward(x, w, u, b), _rnn),
    "cross_entropy_error": Exercise(lambda z, y: softmax(z) - np.eye(z.shape[1])[y], _logits_and_targets),
    "additive_score": Exercise(additive_score, _additive),
    "alignment_weights": Exercise(
        lambda s, h, w_s, w_h, v: bahdanau_attention(s, h, w_s, w_h, v)[1], _bahdanau, same_weights
    ),
    "scaled_dot_score": Exercise(scaled_dot_score, _qk),
    "softmax": Exercise(softmax, _softmax_rows, same_weights),
    "split_heads": Exercise(lambda x, h: split_heads(x, h), _split),
    "merge_heads": Exercise(merge_heads, _merge),
    "sinusoidal_encoding": Exercise(sinusoidal_encoding, _sinusoid),
    "causal_mask": Exercise(lambda n: masks.causal_mask(n), _sizes, same_mask),
    "masked_softmax": Exercise(lambda scores, mask: masked_softmax(scores, mask), _masked_scores, weights_of="mask"),
    "window_mask": Exercise(masks.window_mask, _windows, same_mask),
    "full_mask": Exercise(lambda n: masks.full_mask(n), _sizes, same_mask),
    "masked_softmax_backward": Exercise(softmax_backward, _softmax_grads),
    "masked_attention": Exercise(lambda q, k, v, mask: attention(q, k, v, mask)[0], _qkv_mask),
    "next_token_pairs": Exercise(lambda tokens, bos: next_token_pairs(tokens, bos), _tokens, same_parts(same_value)),
    "reads_future": Exercise(lambda mask: bool(np.triu(mask, 1).any()), _reads_future, same_value),
    "cross_mask": Exercise(lambda n, m: masks.full_mask(n, m), _rectangles, same_mask),
    "two_stack_mask": Exercise(
        lambda n_source, n_target: two_stack_layout(n_source, n_target)[0], _two_stacks, same_mask
    ),
    "masks_for": Exercise(
        lambda machine, n, m: machines.machine_masks(machine, n, m), _machines, same_parts(same_mask)
    ),
    "machine_for": Exercise(machine_for, _choices, same_value),
    "decode_step": Exercise(decode_step, _decode_steps, same_parts(same_array)),
    "cached_causal_mask": Exercise(masks.causal_mask, _cached_sizes, same_mask),
    "kv_cache_bytes": Exercise(_kv_bytes, _kv_shapes, same_value),
    "model_kv_bytes": Exercise(lambda cfg, n_tokens: counts.kv_cache_bytes(cfg, n_tokens), _kv_models, same_value),
    "temperature_softmax": Exercise(temperature_softmax, _temperatures, same_weights),
    "top_p_filter": Exercise(top_p_filter, _top_p, same_weights),
    "top_k_filter": Exercise(top_k_filter, _top_k, same_weights),
    "image_prefix_reads": Exercise(_prefix_reads, _prefix, same_mask),
    "top_source_share": Exercise(lambda weights, gold: (weights.argmax(axis=-1) == gold).mean(axis=-1), _cross_maps),
    "self_attention": Exercise(lambda x, mask: attention(x, x, x, mask)[0], _self_attention_x),
    "fix_masked_bias": Exercise(masked_bias_fix, _bug_rows),
    "fix_fp16_scores": Exercise(
        lambda scores, mask: np.where(mask, scores.astype(np.float16), np.float16(FP16_MIN)).astype(float), _bug_fp16
    ),
    "fix_transposed": Exercise(lambda n: masks.causal_mask(n), _bug_sizes, same_mask),
    "fix_not_inverted": Exercise(lambda n: masks.causal_mask(n), _bug_sizes, same_mask),
    "fix_not_in_place": Exercise(lambda scores, valid: np.where(valid[None, :], scores, -1e9), _bug_pad_scores),
    "fix_query_axis": Exercise(lambda valid: np.broadcast_to(valid[None, :], (len(valid),) * 2), _bug_valid, same_mask),
    "fix_empty_rows": Exercise(_safe_softmax, _bug_empty_rows),
    "fix_top_left": Exercise(lambda t: masks.causal_mask(1, t), _bug_cached, same_mask),
    "fix_window": Exercise(masks.window_mask, _windows, same_mask),
}


def _show(value):
    if isinstance(value, np.ndarray):
        if value.size <= 12:
            text = np.array2string(value.astype(int) if value.dtype == bool else value, precision=3, separator=", ")
            return " ".join(text.split())
        return f"<array {value.shape}>"
    if isinstance(value, Config):
        name = next((m.name for m in MODELS.values() if m.config == value), None)
        return f"published.model({name!r}).config" if name else repr(value)  # as the notebook imports it
    return repr(value)


def verdict(name, fn):  # -> (status, message); status is 'passed', 'not_yet' or 'failed'
    """Run fn on every input of exercise `name` and compare with primer's answer; never raises on fn's account."""
    if name not in EXERCISES:
        raise ValueError(f"name must be one of {tuple(EXERCISES)}, got {name!r}")
    ex = EXERCISES[name]
    cases = ex.cases()
    for case in cases:
        call = f"{name}({', '.join(f'{k}={_show(v)}' for k, v in case.items())})"
        want = ex.reference(**case)
        try:
            got = fn(**{k: v.copy() if isinstance(v, np.ndarray) else v for k, v in case.items()})
        except NotImplementedError:
            return "not_yet", _t("not_yet", name=name)
        except Exception as error:  # the reader's code: report it, do not stop the notebook
            return "failed", _t(
                "failed", name=name, call=call, why=_t("raised", error=f"{type(error).__name__}: {error}")
            )
        if got is None:
            return "not_yet", _t("not_yet", name=name)
        why = same_weights(got, want, case[ex.weights_of]) if ex.weights_of else ex.compare(got, want)
        if why is not None:
            return "failed", _t("failed", name=name, call=call, why=why)
    return "passed", _t("passed", name=name, n=len(cases))


def check(name, fn):
    """Print whether the reader's fn answers exercise `name` as primer does, in the notebook's language."""
    print(verdict(name, fn)[1])

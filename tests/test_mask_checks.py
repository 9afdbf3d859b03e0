"""The check kit (primer/mask_checks.py): it flags each planted mask bug and passes correct implementations.

Correct: primer's attention under primer's masks (causal, window with sinks, chunked, document, prefix-LM, tree),
primer's decoder (primer.transformer), padded on either side, and its KV-cache decoding (primer.kv_cache). Planted:
each a one-line slip of real code (0 added where -inf was meant, triu for tril, the mask transposed or inverted or off
by one, the padding mask on the query axis or dropped, in a decoder padded on the left, padded rows masked whole, a
cache step at the wrong position). The PyTorch twin's verdicts are compared in tests/test_mask_checks_torch.py.
"""

import ast
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from site_reader import DOCS, load_snippet

from primer import mask_checks
from primer.attention import attention
from primer.config import Config
from primer.figures.mask_kit import kit_verdicts
from primer.kv_cache import KVCache, decode_step
from primer.language import labels
from primer.machines import machine_masks
from primer.mask_checks import check_cache, check_causal, check_mask, check_padding, default_tol
from primer.masks import (
    additive_mask,
    batch_mask,
    causal_mask,
    chunked_mask,
    document_mask,
    prefix_lm_mask,
    tree_mask,
    window_mask,
)
from primer.position import sinusoidal_encoding
from primer.transformer import init_stack, stack

CFG = Config()  # the tiny decoder: d_model 16, 4 heads, 2 layers
PARAMS = init_stack(0, CFG)
D = 4  # the width of the single-head attentions below


def weights(d, seed=1):  # -> w_q, w_k, w_v, each [d, d]
    """Random projections at an initial scale, 1/sqrt(d), as a fresh model's (see check_causal's docstring)."""
    rng = np.random.default_rng(seed)
    return [rng.standard_normal((d, d)) / np.sqrt(d) for _ in range(3)]


def masked_attention(x, mask, w=None):  # [n, d], [n, n] bool -> [n, d]
    """primer's attention with primer's mask meaning (True: query i may read key j)."""
    w_q, w_k, w_v = w or weights(x.shape[1])
    return attention(x @ w_q, x @ w_k, x @ w_v, mask)[0]


def added_attention(x, added):  # [n, d], [n, n] float -> [n, d]
    """Attention as hand-written code spells it: softmax(q k^T / sqrt(d) + added) v, no checks."""
    w_q, w_k, w_v = weights(x.shape[1])
    scores = (x @ w_q) @ (x @ w_k).T / np.sqrt(x.shape[1]) + added
    with np.errstate(invalid="ignore"):  # a row of -inf only is 0/0: the NaN is the point
        e = np.exp(scores - scores.max(axis=-1, keepdims=True))
        return e / e.sum(axis=-1, keepdims=True) @ (x @ w_v)


def closed(mask):  # bool -> float: 0 where open, -inf where closed
    return additive_mask(mask)


# ---- planted bugs and correct implementations --------------------------------------------------------------------

CAUSAL_BUGS = {  # name -> (f, the kinds the kit must report)
    "added_0": (lambda x: added_attention(x, additive_mask(causal_mask(len(x)), 0.0)), {"suspect", "future"}),
    "triu_for_tril": (
        lambda x: added_attention(x, closed(np.triu(np.ones((len(x),) * 2, bool)))),
        {"suspect", "future", "blind"},
    ),
    "transposed": (lambda x: added_attention(x, closed(causal_mask(len(x)).T)), {"suspect", "future", "blind"}),
    "inverted": (
        lambda x: added_attention(x, np.where(causal_mask(len(x)), -1e9, 0.0)),
        {"suspect", "future", "blind"},
    ),
    "inverted_inf": (lambda x: added_attention(x, closed(~causal_mask(len(x)))), {"not_finite"}),
    "diagonal_closed": (lambda x: added_attention(x, closed(np.tri(len(x), k=-1, dtype=bool))), {"not_finite"}),
    "one_key_too_many": (lambda x: added_attention(x, closed(np.tri(len(x), k=1, dtype=bool))), {"suspect", "future"}),
    "window_2": (lambda x: masked_attention(x, window_mask(len(x), 2)), {"suspect", "blind"}),
    "no_mask": (lambda x: masked_attention(x, None), {"suspect", "future"}),
}
SUSPECTS = {  # name -> the start of the suspect sentence, the first problem
    "added_0": "every output moves with every input: the mask closes nothing",
    "no_mask": "every output moves with every input: the mask closes nothing",
    "triu_for_tril": "the outputs follow the mask transposed",
    "transposed": "the outputs follow the mask transposed",
    "inverted": "the outputs follow the mask inverted",
    "one_key_too_many": "y[j-1] moves with x[j] for every j: the mask opens one key too many (off by one)",
    "window_2": "the outputs follow a sliding window of 2 keys",
}


def decoder(x):  # [n, 16] -> [n, 16]
    """primer's decoder stack on rows that are already embedded."""
    return stack(x, PARAMS, CFG, causal_mask(len(x)))[0]


def decoder_step():
    """A fresh cached decoder: each call runs one new row through the stack, reading the cached K/V."""
    cache = KVCache(CFG)

    def step(x_t):  # [16] -> [16]
        return stack(x_t[None], PARAMS, CFG, machine_masks("decoder", 1, past=cache.length)[0], cache=cache)[0][0]

    return step


def head_step():
    """primer.kv_cache.decode_step: one head, its K/V rows kept between calls."""
    w_q, w_k, w_v = weights(D)
    kv = [np.zeros((0, D)), np.zeros((0, D))]

    def step(x_t):  # [D] -> [D]
        y_t, kv[0], kv[1] = decode_step(x_t, kv[0], kv[1], w_q, w_k, w_v)
        return y_t

    return step


def padded_decoder(x, valid, bug=None):  # [n, 16], [n] -> [n, 16]
    """primer's decoder under its batch mask, padded on valid's side: causal AND real keys, a pad reads only itself.

    bug "query_axis": the padding mask on the query axis, filled with -1e4 as hand-written code does; "dropped": the
    padding mask computed and never applied, as masked_fill without its underscore.
    """
    side = "left" if not valid[0] else "right"
    mask = batch_mask([int(valid.sum())], len(x), causal=True, side=side)[0]
    if bug == "query_axis":  # causal AND valid[:, None] under -1e4: a padded query's row, all -1e4, reads every key
        mask = np.where(valid[:, None], causal_mask(len(x)), True)
    if bug == "dropped":
        mask = causal_mask(len(x))
    return stack(x, PARAMS, CFG, mask)[0]


PADDING_BUGS = {  # name -> (f, the kinds the kit must report)
    "query_axis": (
        lambda x, valid: added_attention(x, closed(np.repeat(valid[:, None], len(x), 1))),
        {"not_finite", "padding", "more_padding", "alone"},
    ),
    "padded_rows_masked_whole": (
        lambda x, valid: added_attention(x, closed(valid[:, None] & valid[None, :])),
        {"not_finite"},
    ),
    "no_padding_mask": (lambda x, valid: masked_attention(x, None), {"padding", "more_padding", "alone"}),
    "added_0": (
        lambda x, valid: added_attention(x, additive_mask(np.tile(valid, (len(x), 1)), 0.0)),
        {"padding", "more_padding", "alone"},
    ),
}


N = 8
MASKS = {  # the masks a layer may be built for, each [N, N] with True: may read
    "causal": causal_mask(N),
    "window_sinks": window_mask(N, 3, sinks=1),
    "chunked": chunked_mask(N, 3),
    "document": document_mask([0, 0, 0, 1, 1, 2, 2, 2]),
    "prefix_lm": prefix_lm_mask(N, 3),
    "tree": tree_mask([-1, 0, 0, 1, 1, 2, 2, 0]),
}


def one_more_key(mask):  # [n, n] -> [n, n]: the closed key just before an open one, opened too (an off-by-one)
    more = mask.copy()
    more[:, :-1] |= mask[:, 1:] & ~mask[:, :-1] & np.tri(len(mask), dtype=bool)[:, :-1]
    return more


DECODER_PADDING = {  # primer's decoder (d = CFG.d_model) padded on either side -> the kinds the kit must report
    "correct": (padded_decoder, set()),
    # The bugs show only with the padding on the left: a causal row never reaches a pad after it
    "query_axis": (lambda x, valid: padded_decoder(x, valid, "query_axis"), {"padding", "more_padding", "alone"}),
    "dropped": (lambda x, valid: padded_decoder(x, valid, "dropped"), {"padding", "more_padding", "alone"}),
}


def reach(mask, layers):  # [n, n] -> [n, n]: what y[i] of a stack of layers, each under mask, depends on
    out = mask
    for _ in range(layers - 1):
        out = (out.astype(int) @ mask.astype(int)) > 0  # y[i] reads h[j] (out), h[j] reads x[k] (mask)
    return out


def positioned(x):  # [n, D] -> [n, D]
    """Causal attention over rows with sinusoidal positions added: what the cache bugs below must reproduce."""
    return masked_attention(x + sinusoidal_encoding(len(x), D), causal_mask(len(x)))


def cache_step(bug):
    """A factory of cached decoders of `positioned`, with one slip (or none)."""
    w_q, w_k, w_v = weights(D)

    def fresh():
        rows = []  # every row so far, with its position added: K and V are projected from them

        def step(x_t):  # [D] -> [D]
            t = len(rows)
            rows.append(x_t + sinusoidal_encoding(t + 1, D)[0 if bug == "position_0" else t])  # slip: always at 0
            seen = np.array(rows)
            open_keys = np.ones(t + 1, bool)  # the new row reads every cached key and itself
            if bug == "top_left":  # is_causal on one query against t + 1 keys aligns top-left: key 0 only
                open_keys = np.arange(t + 1) == 0
            if bug == "no_append":  # only the new row's own key: the cache is never read
                open_keys = np.arange(t + 1) == t
            return attention(seen[-1:] @ w_q, seen @ w_k, seen @ w_v, open_keys[None])[0][0]

        return step

    return fresh


def test_correct_implementations_pass():
    assert check_causal(lambda x: masked_attention(x, causal_mask(len(x)))) == []
    assert check_causal(decoder, d=CFG.d_model) == []
    assert check_padding(lambda x, valid: masked_attention(x, np.tile(valid, (len(x), 1)))) == []
    assert check_padding(padded_decoder, d=CFG.d_model) == []  # padded on the right, then on the left
    assert check_cache(decoder_step, decoder, d=CFG.d_model) == []
    assert check_cache(head_step, lambda x: masked_attention(x, causal_mask(len(x)), weights(D))) == []
    assert check_cache(cache_step(None), positioned) == []


@pytest.mark.parametrize("name", MASKS)
def test_check_mask_passes_a_layer_built_for_its_mask_and_flags_the_others(name):
    mask = MASKS[name]
    assert check_mask(lambda x: masked_attention(x, mask), mask) == []
    stacked = reach(mask, CFG.n_layers)  # a window reaches further back through each layer; the others do not
    assert np.array_equal(stacked, mask) == (name != "window_sinks")
    assert check_mask(lambda x: stack(x, PARAMS, CFG, mask)[0], stacked, d=CFG.d_model) == []
    for other, wrong in MASKS.items():
        if other != name:
            found = check_mask(lambda x, wrong=wrong: masked_attention(x, wrong), mask)
            assert found and {p.kind for p in found} <= {"suspect", "future", "leak", "blind"}, (other, found)


@pytest.mark.parametrize("name", [m for m in MASKS if m != "causal"])
def test_check_mask_names_a_layer_that_applies_only_the_causal_part(name):
    found = check_mask(lambda x: masked_attention(x, causal_mask(len(x))), MASKS[name])
    assert found[0].kind == "suspect" and found[0].startswith("the outputs follow the plain causal mask"), found


def test_check_mask_names_a_window_off_by_one():
    mask = MASKS["window_sinks"]
    found = check_mask(lambda x: masked_attention(x, one_more_key(mask)), mask)
    assert found[0] == "y[j+3] moves with x[j] for every j: the mask opens one key too many (off by one)", found
    assert {p.kind for p in found} == {"suspect", "leak"}
    assert [p.positions for p in found[1:]] == [(1, 4), (2, 5), (3, 6), (4, 7)]


@pytest.mark.parametrize("name", ["chunked", "document", "tree"])
def test_check_mask_flags_one_more_key_without_a_suspect_it_cannot_name(name):
    mask = MASKS[name]
    found = check_mask(lambda x: masked_attention(x, one_more_key(mask)), mask)
    opened = np.argwhere(one_more_key(mask) & ~mask)  # (i, j): y[i] now reads x[j]
    assert {(p.positions[0], i) for p in found if p.kind == "leak" for i in p.positions[1:]} == {
        (int(j), int(i)) for i, j in opened
    }


def test_a_correct_sliding_window_layer_passes_check_mask_and_check_causal_says_why_it_flags_it():
    mask = window_mask(N, 2)
    assert check_mask(CAUSAL_BUGS["window_2"][0], mask) == []
    assert check_cache(lambda: cache_window(2), CAUSAL_BUGS["window_2"][0], mask=mask) == []


def cache_window(window):  # a fresh cached decoder whose cache keeps the window most recent rows
    w_q, w_k, w_v = weights(D)
    rows = []

    def one(x_t):  # [D] -> [D]
        rows.append(x_t)
        kept = np.array(rows[-window:])
        return attention(x_t[None] @ w_q, kept @ w_k, kept @ w_v, None)[0][0]

    return one


@pytest.mark.parametrize("name", CAUSAL_BUGS)
def test_check_causal_flags_each_planted_bug(name):
    f, kinds = CAUSAL_BUGS[name]
    problems = check_causal(f)
    assert {p.kind for p in problems} == kinds, problems
    if name in SUSPECTS:
        assert problems[0].kind == "suspect" and problems[0].startswith(SUSPECTS[name]), problems[0]


@pytest.mark.parametrize("name", PADDING_BUGS)
def test_check_padding_flags_each_planted_bug(name):
    f, kinds = PADDING_BUGS[name]
    problems = check_padding(f)
    assert {p.kind for p in problems} == kinds, problems


@pytest.mark.parametrize("name", DECODER_PADDING)
def test_a_decoders_padding_bugs_show_only_with_the_padding_on_the_left(name):
    f, kinds = DECODER_PADDING[name]
    assert check_padding(f, d=CFG.d_model, side="right") == []  # a causal row never reaches a pad after it
    left = check_padding(f, d=CFG.d_model, side="left")
    assert {p.kind for p in left} == kinds
    assert all(p.startswith("with the padding on the left, ") for p in left)
    assert check_padding(f, d=CFG.d_model) == left  # side="both": the right finds nothing, the left all of it


@pytest.mark.parametrize("bug", ["position_0", "top_left", "no_append"])
def test_check_cache_flags_each_planted_bug(bug):
    problems = check_cache(cache_step(bug), positioned)
    assert problems and {p.kind for p in problems} == {"cache"}, problems
    assert [p.positions for p in problems] == [(t,) for t in range(1, 8)]  # step 0 has nothing cached to get wrong


def test_check_cache_says_when_the_full_pass_is_itself_wrong():
    mask = window_mask(N, 2)
    wrong_full = lambda x: masked_attention(x, window_mask(len(x), 3))  # noqa: E731  one key too many
    problems = check_cache(lambda: cache_window(2), wrong_full, mask=mask)
    assert {p.kind for p in problems} == {"cache", "full"} and problems[-1].kind == "full"
    assert problems[-1] == (
        "the full pass itself fails check_mask (7 problems, the first: y[j+2] moves with x[j] for every j: the mask "
        "opens one key too many (off by one)): fix it first, run check_mask on it"
    )
    assert all(p.kind == "cache" for p in check_cache(cache_step("top_left"), positioned))  # a right full pass


def test_the_sentences_name_the_positions():
    problems = check_causal(CAUSAL_BUGS["added_0"][0], n=4)
    assert problems == [
        "every output moves with every input: the mask closes nothing (suspect a mask dropped, applied to a copy, "
        "added as 0, or a fill too small)",
        "changing x[1] moves the earlier output y[0], though the mask closes x[1] to it: "
        "a later position leaks into earlier ones",
        "changing x[2] moves the earlier outputs y[0] and y[1], though the mask closes x[2] to them: "
        "a later position leaks into earlier ones",
        "changing x[3] moves the earlier outputs y[0], y[1] and y[2], though the mask closes x[3] to them: "
        "a later position leaks into earlier ones",
    ]
    assert [p.positions for p in problems] == [(), (1, 0), (2, 0, 1), (3, 0, 1, 2)]
    blind = check_causal(CAUSAL_BUGS["window_2"][0], n=4)
    assert blind[1:] == [
        "y[2] does not move when x[0] changes, though the mask lets it read it: over-masking",
        "y[3] does not move when x[0] or x[1] changes, though the mask lets it read them: over-masking",
    ]
    assert [p.positions for p in blind] == [(), (2, 0), (3, 0, 1)]
    nan = check_padding(PADDING_BUGS["padded_rows_masked_whole"][0], n=5, n_pad=2, side="right")
    assert nan == [
        "with the padding on the right, y[3] and y[4] hold NaN or inf: suspect a row with every key closed "
        "(0/0 in the softmax), or a fill that overflows"
    ]
    assert nan[0].positions == (3, 4)
    more = check_padding(PADDING_BUGS["no_padding_mask"][0], n=3, n_pad=1, side="left")
    assert more == [
        "with the padding on the left, changing the padded x[0] moves the real outputs y[1] and y[2]: padding leaks "
        "in (suspect a padding mask on the query axis, or one computed and dropped)",
        "with the padding on the left, adding 1 more padded rows moves the real outputs y[1] and y[2]",
        "with the padding on the left, the real outputs y[1] and y[2] differ from a run of the real tokens alone: "
        "they read padding (or count positions from the pads)",
    ]
    assert [p.positions for p in more] == [(0, 1, 2), (1, 2), (1, 2)]
    step = check_cache(cache_step("no_append"), positioned, n=2)
    assert (
        step[0] == "step 1 (fed x[1]) disagrees with the full pass's y[1] by more than tol=1e-09 of the output's scale"
    )
    assert check_cache(cache_step("no_append"), positioned, n=2, tol=1e-6)[0].endswith(
        "tol=1e-06 of the output's scale"
    )


def test_a_problem_is_a_plain_string():
    problem = check_causal(CAUSAL_BUGS["one_key_too_many"][0], n=3)[1]
    assert isinstance(problem, str) and problem.kind == "future" and problem.positions == (1, 0)
    assert str(problem) == problem and "kind" not in repr(problem)


def test_a_small_leak_is_still_flagged():
    """The tolerance's reason: a closed key filled with -10 instead of -inf keeps a weight near e^-10, and is seen."""
    problems = check_causal(lambda x: added_attention(x, additive_mask(causal_mask(len(x)), -10.0)))
    assert {p.kind for p in problems} == {"suspect", "future"}
    assert check_causal(lambda x: added_attention(x, additive_mask(causal_mask(len(x)), -1e4))) == []  # e^-1e4 is 0


def test_the_default_tolerance_follows_the_dtype():
    assert default_tol(np.float64) == 1e-9 and default_tol(np.float32) == 1e-4 and default_tol(np.float16) == 3e-2
    assert default_tol(np.int64) == 1e-9  # not a float: judged as float64


def f32_layer(window=None):  # -> f: x [n, D] float64 -> y [n, D] float32, computed in float32
    w = [m.astype(np.float32) for m in weights(D)]

    def f32(x):
        x = x.astype(np.float32)
        mask = causal_mask(len(x)) if window is None else window_mask(len(x), window)
        return attention(x @ w[0], x @ w[1], x @ w[2], mask)[0].astype(np.float32)

    return f32


def test_a_float32_layer_passes_with_the_tolerance_of_its_dtype():
    """No false alarm: tol=None reads float32 off the output; forced to float64's 1e-9, its rounding is flagged."""
    f32 = f32_layer()

    def step():
        rows = []

        def one(x_t):
            rows.append(x_t.astype(np.float32))
            return f32(np.array(rows))[-1]

        return one

    assert check_causal(f32) == [] and check_cache(step, f32) == []
    assert check_mask(f32_layer(3), window_mask(N, 3)) == []
    assert {p.kind for p in check_cache(step, f32, tol=1e-9)} == {"cache"}  # the rounding, seen as a disagreement


@settings(max_examples=25)
@given(st.integers(2, 12), st.integers(1, 6), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_no_false_alarm_on_correct_attention(n, d, seed, w_seed):
    """No problem is reported, except the blind spot check_mask's docstring states: a weight below tol."""
    w = weights(d, w_seed)
    first = []  # the attention weights of the kit's first call: its unchanged rows

    def full(x):
        out, a = attention(x @ w[0], x @ w[1], x @ w[2], causal_mask(len(x)))
        first.append(first[0] if first else a)
        return out

    def step():
        rows = []

        def one(x_t):
            rows.append(x_t)
            return full(np.array(rows))[-1]

        return one

    for problem in check_causal(full, n, d, seed):
        i, *js = problem.positions
        assert problem.kind == "blind" and all(first[0][i, j] < 1e-6 for j in js), (problem, first[0][i])
    assert check_padding(lambda x, valid: masked_attention(x, np.tile(valid, (len(x), 1)), w), n, d, n - 1, seed) == []
    assert check_cache(step, full, n, d, seed) == []


@settings(max_examples=10)
@given(st.integers(2, 10), st.integers(0, 2**32 - 1))
def test_no_false_alarm_on_primers_decoder(n, seed):
    assert check_causal(decoder, n, CFG.d_model, seed) == []
    assert check_cache(decoder_step, decoder, n, CFG.d_model, seed) == []
    assert check_padding(padded_decoder, n, CFG.d_model, 1, seed) == []


def test_the_kit_does_not_change_the_callers_arrays_or_depend_on_them():
    seen = []

    def f(x):
        seen.append(x)
        y = masked_attention(x, causal_mask(len(x)))
        x[:] = 0  # a function that writes into its input must not change the kit's rows
        return y

    assert check_causal(f) == [] and len({id(x) for x in seen}) == len(seen)


def test_the_kit_is_standalone_numpy():
    """A reader copies the one file: it imports numpy and the standard library only, and runs alone."""
    source = mask_checks.__file__
    tree = ast.parse(open(source, encoding="utf-8").read())
    modules = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
    modules |= {(n.module or ".").split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)}
    assert modules <= {"numpy"} | set(sys.stdlib_module_names), sorted(modules)
    program = open(source, encoding="utf-8").read() + (
        "\nimport numpy as np\n"
        "f = lambda x: np.cumsum(x, axis=0)\n"
        "print(check_causal(f), check_causal(lambda x: x.sum(0, keepdims=True).repeat(len(x), 0)))\n"
    )
    run = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin"})
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("[] ['every output moves with every input: the mask closes nothing")


# ---- the page's block: real implementations through the kit ----------------------------------------------------


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_kit_real_finds_no_problem_in_primers_implementations(lang):
    ns = load_snippet("14-mask-bugs/kit_real.py")
    assert [(name, check) for name, check, _ in ns["rows"]] == [
        ("attention", "check_causal"),
        ("attention_padding", "check_padding"),
        ("decoder", "check_causal"),
        ("decoder_padding", "check_padding"),
        ("kv_cache", "check_cache"),
        ("decode_step", "check_cache"),
    ]
    assert all(problems == [] for _, _, problems in ns["rows"]), ns["rows"]
    table = kit_verdicts(ns["rows"], lang)
    none = labels("mask_kit", lang)["none"]
    assert [line.rsplit("|", 2)[1].strip() for line in table.strip().split("\n")[2:]] == [none] * 6


def test_kit_real_would_show_a_problem():
    """The table is not a constant: a bug swapped in for primer's mask is counted."""
    ns = load_snippet("14-mask-bugs/kit_real.py")
    found = check_causal(lambda x: ns["attend"](x, ~causal_mask(len(x)) | np.eye(len(x), dtype=bool)), d=CFG.d_model)
    table = kit_verdicts([("attention", "check_causal", found)], "en")
    assert found and table.strip().endswith(f"| {len(found)} |")


def test_kit_source_shows_the_whole_module_as_one_python_block():
    printed = []
    path = DOCS / "snippets" / "14-mask-bugs" / "kit_source.py"
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), {"print": printed.append})
    source = open(mask_checks.__file__, encoding="utf-8").read()
    assert printed == [f"```python\n{source}```"] and "```" not in source

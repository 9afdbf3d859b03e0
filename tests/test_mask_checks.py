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
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from mask_cases import (
    CAUSAL_BUGS,
    CFG,
    DECODER_PADDING,
    MASKS,
    PADDING_BUGS,
    PARAMS,
    SUSPECTS,
    D,
    N,
    added_attention,
    cache_step,
    cache_window,
    decoder,
    decoder_step,
    head_step,
    masked_attention,
    one_more_key,
    padded_decoder,
    positioned,
    reach,
    weights,
)
from site_reader import DOCS, load_snippet

from primer import mask_checks
from primer.attention import attention
from primer.figures.mask_kit import kit_verdicts
from primer.language import labels
from primer.mask_checks import check_cache, check_causal, check_mask, check_padding, default_tol
from primer.masks import additive_mask, causal_mask, window_mask
from primer.transformer import stack


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


@pytest.mark.parametrize("dtype, blind_below", [(np.float64, 1e-6), (np.float32, 1e-2)])
@settings(max_examples=25)
# d >= 2: with one feature, a changed key's score and value can cancel in an output by coincidence (a blind spot)
@given(st.integers(2, 12), st.integers(2, 6), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1))
def test_no_false_alarm_on_correct_attention(dtype, blind_below, n, d, seed, w_seed):
    """No problem is reported in float64 or float32, except the blind spot check_mask's docstring states."""
    w = [m.astype(dtype) for m in weights(d, w_seed)]
    first = []  # the attention weights of the kit's first call: its unchanged rows

    def run(x, mask):  # [n, d] -> [n, d] in dtype
        x = x.astype(dtype)
        out, a = attention(x @ w[0], x @ w[1], x @ w[2], mask)
        first.append(first[0] if first else a)
        return out.astype(dtype)

    full = lambda x: run(x, causal_mask(len(x)))  # noqa: E731

    def step():
        rows = []

        def one(x_t):
            rows.append(x_t)
            return full(np.array(rows))[-1]

        return one

    # The other blind spot: outputs far below 1 in size move less than tol, since the scale is at least 1
    assume(np.abs(full(np.random.default_rng(seed).standard_normal((n, d)))).max() > 0.1)
    first.clear()
    for problem in check_causal(full, n, d, seed):
        if problem.kind != "suspect":  # a weight below tol reads as over-masking
            i, *js = problem.positions
            assert problem.kind == "blind" and all(first[0][i, j] < blind_below for j in js), (problem, first[0][i])
    padded = lambda x, valid: run(x, causal_mask(len(x)) & valid[None, :] | np.diag(~valid))  # noqa: E731
    assert check_padding(padded, n, d, n - 1, seed) == []  # on the right, then on the left
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
        ("attention_window", "check_mask"),
        ("attention_document", "check_mask"),
        ("decoder", "check_causal"),
        ("decoder_padding", "check_padding"),
        ("kv_cache", "check_cache"),
        ("decode_step", "check_cache"),
    ]
    assert all(problems == [] for _, _, problems in ns["rows"]), ns["rows"]
    table = kit_verdicts(ns["rows"], lang)
    none = labels("mask_kit", lang)["none"]
    assert [line.rsplit("|", 2)[1].strip() for line in table.strip().split("\n")[2:]] == [none] * 8


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

"""The nine bugs' PyTorch twins (docs/snippets/14-mask-bugs/bugs_pytorch.py) against primer.wild_bugs.

Each torch buggy function is flagged by the kit's PyTorch twin (kit_pytorch.py) with the kinds of problem the numpy kit
finds in the numpy reproduction, each torch fix passes, and on the same inputs the torch functions return what the
numpy ones return (float64: within 1e-12 of the output's scale, NaN where numpy has NaN). The FP16 bug computes in
float16, where numpy and torch may round a sum or an exp differently: there the bound is FP16's, not float64's.
The page shows, in each bug's PyTorch tab, the file's head (imports and helpers) and that bug's own lines.
"""

import re
from functools import partial

import numpy as np
import pytest
from site_reader import DOCS, LANGS, load_snippet

from primer import mask_checks, wild_bugs
from primer.inputs.mask_bugs import N_PAD, ORDER, SEED, SHIFT_FP16, SHIFT_MASKED_BIAS, WINDOW, D, N

torch = pytest.importorskip("torch")
F = torch.nn.functional

FILE = "14-mask-bugs/bugs_pytorch.py"
BUGS = load_snippet(FILE)
KIT = load_snippet("14-mask-bugs/kit_pytorch.py")
SHIFTS = {"masked_bias": SHIFT_MASKED_BIAS, "fp16_min": SHIFT_FP16}
CHECKS = {
    "causal": lambda kit, f, seed: kit["check_causal"](f, n=N, d=D, seed=seed),
    "padding": lambda kit, f, seed, side="both": kit["check_padding"](f, n=N, d=D, n_pad=N_PAD, seed=seed, side=side),
    "cache": lambda kit, pair, seed: kit["check_cache"](*pair, n=N, d=D, seed=seed),
}
NUMPY_KIT = vars(mask_checks)
FP16_BOUND = 1e-2  # of the output's scale: FP16 keeps 11 bits (steps of 5e-4 to 1e-3); numpy and torch round apart


def torch_layers(name):  # -> (buggy, fixed), as primer.wild_bugs.layers(name) gives them in numpy
    shift = SHIFTS.get(name, 0.0)
    if name in SHIFTS:
        bug, fix = BUGS[f"{name}_bug"], BUGS[f"{name}_fix"]
        return (lambda *a: bug(*a, shift=shift)), (lambda *a: fix(*a, shift=shift))
    if name == "top_left":
        return (BUGS["top_left_bug"], BUGS["causal_full"]), (BUGS["top_left_fix"], BUGS["causal_full"])
    if name == "window":
        step = lambda: BUGS["window_decoder"](WINDOW)  # noqa: E731
        bug, fix = BUGS["window_full_bug"], BUGS["window_full_fix"]
        return (step, lambda x: bug(x, WINDOW)), (step, lambda x: fix(x, WINDOW))
    return BUGS[f"{name}_bug"], BUGS[f"{name}_fix"]


def numpy_layers(name):
    return wild_bugs.layers(name, shift=SHIFTS.get(name, 0.0), window=WINDOW)


def as_numpy(f):  # a torch function, called with numpy arrays
    return lambda *a: f(*(torch.from_numpy(np.asarray(v)) for v in a)).numpy()


def as_numpy_pair(name, pair):
    if wild_bugs.BUGS[name].check != "cache":
        return as_numpy(pair)
    step, full = pair
    return (lambda: as_numpy(step())), as_numpy(full)


def verdicts(problems):
    return [(str(p), p.kind, p.positions) for p in problems]


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("name", ORDER)
def test_the_torch_twin_of_each_bug_is_flagged_like_numpys_and_its_fix_passes(name, seed):
    bug = wild_bugs.BUGS[name]
    check = partial(CHECKS[bug.check], side=bug.side) if bug.check == "padding" else CHECKS[bug.check]
    (torch_bug, torch_fix), (numpy_bug, _) = torch_layers(name), numpy_layers(name)
    found = check(KIT, torch_bug, seed)
    assert found, f"{name}: the PyTorch kit found nothing in the torch bug (seed {seed})"
    assert {p.kind for p in found} == {p.kind for p in check(NUMPY_KIT, numpy_bug, seed)}, found
    assert check(KIT, torch_fix, seed) == [], f"{name}: the PyTorch kit flags the torch fix (seed {seed})"


@pytest.mark.parametrize("name", ORDER)
def test_the_numpy_kit_says_the_same_sentences_on_the_torch_and_the_numpy_versions(name):
    bug = wild_bugs.BUGS[name]
    check = partial(CHECKS[bug.check], side=bug.side) if bug.check == "padding" else CHECKS[bug.check]
    for torch_pair, numpy_pair in zip(torch_layers(name), numpy_layers(name)):
        assert verdicts(check(NUMPY_KIT, as_numpy_pair(name, torch_pair), SEED)) == verdicts(
            check(NUMPY_KIT, numpy_pair, SEED)
        )


def far(got, want, bound):
    """Return why got differs from want: NaN in other places, or a gap beyond bound x the output's scale."""
    if got.shape != want.shape:
        return f"shape {got.shape} vs {want.shape}"
    if not np.array_equal(np.isnan(got), np.isnan(want)):
        return f"NaN in {np.isnan(got).sum()} places, numpy's in {np.isnan(want).sum()}"
    ok = ~np.isnan(want)
    gap = np.abs(got[ok] - want[ok]).max(initial=0.0)
    scale = max(1.0, np.abs(want[ok]).max(initial=0.0))
    return None if gap <= bound * scale else f"gap {gap:.3g} beyond {bound:g} x {scale:.3g}"


def outputs(name, pair, x, valid):  # -> the layer's y, or the cached decoder's rows and the full pass's y
    check = wild_bugs.BUGS[name].check
    if check == "causal":
        return pair(x)
    if check == "padding":
        return pair(x, valid)
    step, full = pair
    decoder = step()
    return np.concatenate([np.stack([decoder(row) for row in x]), full(x)])


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("name", ORDER)
def test_torch_returns_what_numpy_returns_on_the_same_inputs(name, seed):
    x = np.random.default_rng(seed).standard_normal((N, D))
    valid = np.arange(N) < N - N_PAD
    bound = FP16_BOUND if name == "fp16_min" else 1e-12
    for torch_pair, numpy_pair in zip(torch_layers(name), numpy_layers(name)):
        got = outputs(name, as_numpy_pair(name, torch_pair), x, valid)
        want = outputs(name, numpy_pair, x, valid)
        assert far(got, want, bound) is None, f"{name}, seed {seed}: {far(got, want, bound)}"


# ---- what the twins' comments say of PyTorch, checked on the installed version ---------------------------------


def test_sdpa_gives_zeros_and_a_plain_softmax_nan_for_a_row_with_no_key():
    """The nan_rows twin: the bug spells the softmax out, since SDPA (2.5 and later) returns 0 for an empty row."""
    x = torch.randn(4, 3, dtype=torch.float64)
    mask = torch.ones(4, 4, dtype=torch.bool)
    mask[2] = False
    assert torch.equal(F.scaled_dot_product_attention(x, x, x, attn_mask=mask)[2], torch.zeros(3, dtype=torch.float64))
    assert torch.isnan((x @ x.T).masked_fill(~mask, -torch.inf).softmax(dim=-1)[2]).all()


def test_the_transposed_fix_is_what_generate_square_subsequent_mask_returns_today():
    for n in (1, 4, 7):
        x = torch.zeros(n, 2, dtype=torch.float64)
        want = torch.nn.Transformer.generate_square_subsequent_mask(n, dtype=torch.float64)
        fix = torch.full((n, n), -torch.inf, dtype=x.dtype).triu(diagonal=1)
        assert torch.equal(fix, want)
    source = (DOCS / "snippets" / FILE).read_text(encoding="utf-8")
    assert "torch.full((len(x), len(x)), -math.inf, dtype=x.dtype).triu(diagonal=1)" in source


def test_is_causal_on_one_cached_query_reads_key_0_only():
    """The top_left twin uses PyTorch's own is_causal: with one query and t keys, only key 0 is read."""
    x = torch.randn(5, 3, dtype=torch.float64)
    decoder = BUGS["top_left_bug"]()
    for t in range(5):
        y_t = decoder(x[t])
        assert (y_t - x[0]).abs().max() < 1e-12  # one key, weight 1: its value row, x[0]


# ---- the page -----------------------------------------------------------------------------------------------------


def file_ranges():  # -> (head, {name: section}), 1-based inclusive line ranges of bugs_pytorch.py
    lines = (DOCS / "snippets" / FILE).read_text(encoding="utf-8").split("\n")
    starts = [i for i, line in enumerate(lines) if re.match(r"# ---- \d\. (\w+):", line)]
    head = (lines.index("import math") + 1, starts[0])  # up to causal() and the two blank lines after it
    sections = {}
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(lines)
        while not lines[end - 1].strip():
            end -= 1
        sections[re.match(r"# ---- \d\. (\w+):", lines[start])[1]] = (start + 1, end)
    return head, sections


def test_the_file_has_one_section_per_bug_in_the_pages_order():
    assert list(file_ranges()[1]) == list(ORDER)


TABS = {"zh": "代码|结果", "en": "Code|Result"}  # each page labels its tabs in its language (tests/test_typography.py)


@pytest.mark.parametrize("lang", LANGS)
def test_each_bug_section_shows_its_pytorch_lines_beside_its_numpy_block(lang):
    page = (DOCS / lang / "14-mask-bugs.md").read_text(encoding="utf-8")
    head, sections = file_ranges()
    for name in ORDER:
        anchor = name.replace("_", "-")
        section = re.search(rf"\{{#{anchor}\}}\n(.*?)(?=\n#+ )", page, re.S)[1]
        want = (
            f'=== "numpy"\n\n    ```python exec="1" id="{anchor}" source="tabbed-right" tabs="{TABS[lang]}"\n'
            f'    --8<-- "14-mask-bugs/{name}.py"\n    ```\n\n=== "PyTorch"\n\n    ```python\n'
            f'    --8<-- "{FILE}:{head[0]}:{head[1]}"\n    --8<-- "{FILE}:{sections[name][0]}:{sections[name][1]}"\n'
            "    ```\n"
        )
        assert want in section, f"{lang}, {name}: the tabs should read\n{want}"

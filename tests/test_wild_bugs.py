"""primer.wild_bugs: every reproduced bug is flagged by the mask checks, every fix passes, and each symptom holds."""

import numpy as np
import pytest

from primer import wild_bugs
from primer.inputs.mask_bugs import N_PAD, ORDER, SEED, SHIFT_FP16, SHIFT_MASKED_BIAS, WINDOW, D, N
from primer.mask_checks import check_cache, check_causal, check_padding
from primer.masks import window_mask

SHIFTS = {"masked_bias": SHIFT_MASKED_BIAS, "fp16_min": SHIFT_FP16}


def verdicts(name, seed):
    return wild_bugs.checked(name, n=N, d=D, n_pad=N_PAD, seed=seed, shift=SHIFTS.get(name, 0.0), window=WINDOW)


@pytest.mark.parametrize("name", ORDER)
def test_checked_runs_the_bugs_own_check_of_the_kit(name):
    pair, check = wild_bugs.layers(name, shift=SHIFTS.get(name, 0.0), window=WINDOW), wild_bugs.BUGS[name].check
    if check == "causal":
        direct = [check_causal(f, n=N, d=D, seed=SEED) for f in pair]
    elif check == "padding":
        direct = [check_padding(f, n=N, d=D, n_pad=N_PAD, seed=SEED, side=wild_bugs.BUGS[name].side) for f in pair]
    else:
        mask = window_mask(N, WINDOW) if name == "window" else None
        direct = [check_cache(step, full, n=N, d=D, seed=SEED, mask=mask) for step, full in pair]
    assert list(verdicts(name, SEED)) == direct


def test_the_page_covers_every_bug_and_at_least_five_families():
    assert sorted(ORDER) == sorted(wild_bugs.BUGS)
    assert len({b.family for b in wild_bugs.BUGS.values()}) >= 5 and len(wild_bugs.BUGS) >= 8


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("name", ORDER)
def test_the_checks_flag_every_bug_and_pass_every_fix(name, seed):
    buggy, fixed = verdicts(name, seed)
    assert buggy, f"{name}: the check found nothing in the buggy version (seed {seed})"
    assert fixed == [], f"{name}: the check complained about the fix (seed {seed}): {fixed}"


EXPECTED_KIND = {
    "masked_bias": "future",
    "fp16_min": "not_finite",
    "transposed": "future",
    "not_inverted": "future",
    "not_in_place": "padding",
    "query_axis": "not_finite",
    "nan_rows": "not_finite",
    "top_left": "cache",
    "window": "cache",
}


@pytest.mark.parametrize("name", ORDER)
def test_each_bug_is_flagged_for_the_reason_the_page_gives(name):
    assert [p.kind for p in verdicts(name, SEED)[0] if p.kind != "suspect"][0] == EXPECTED_KIND[name]


SUSPECTS = {  # what the kit says to suspect, its first sentence (the window's: its last, on the full pass)
    "masked_bias": "the outputs follow the mask inverted: suspect True read as closed",  # the closed keys win
    "transposed": "the outputs follow the mask transposed: suspect the query and key axes swapped",
    "not_inverted": "the outputs follow the mask inverted: suspect True read as closed",
    "window": "the full pass itself fails check_mask (7 problems, the first: y[j+2] moves with x[j] for every j: the "
    "mask opens one key too many (off by one))",
}


@pytest.mark.parametrize("name", SUSPECTS)
def test_the_kit_says_what_to_suspect(name):
    found = verdicts(name, SEED)[0]
    said = found[-1] if name == "window" else found[0]
    assert said.kind in ("suspect", "full") and said.startswith(SUSPECTS[name]), said


def rows():
    return np.random.default_rng(SEED).standard_normal((N, D)), np.arange(N) < N - N_PAD


@pytest.mark.parametrize("seed", range(5))
def test_the_printed_symptoms_hold_with_margins(seed):
    x = np.random.default_rng(seed).standard_normal((N, D))
    valid = np.arange(N) < N - N_PAD
    s = {n: wild_bugs.symptom(n, x, valid=valid, shift=SHIFTS.get(n, 0.0), window=WINDOW) for n in ORDER}
    assert s["masked_bias"][0] > 0.999 and s["masked_bias"][1] == 0  # exp(finfo.min - max) underflows to exactly 0
    # row 0 reads only the future: weights sum to 1 up to rounding (another BLAS: 1 + 2e-16); the fix's 0 is exact
    assert abs(s["not_inverted"][0] - 1.0) < 1e-12 and s["not_inverted"][1] == 0
    assert 0.3 < s["transposed"][0] < 1 and s["transposed"][1] == 0
    assert 0.05 < s["not_in_place"][0] < 0.95 and s["not_in_place"][1] == 0
    assert s["query_axis"] == (N_PAD, 0)  # under -inf each padded row is NaN; the fix leaves no row empty
    assert s["fp16_min"] == (N, 0) and s["nan_rows"] == (N, 0)  # the NaN reaches every row
    for name in ("top_left", "window"):
        assert s[name][0] > 1e-2 and s[name][1] < 1e-12


def test_the_page_numbers_are_far_from_rounding_boundaries():
    x, valid = rows()
    for name in ("transposed", "not_in_place"):
        share = wild_bugs.symptom(name, x, valid=valid)[0] * 1000  # printed with one decimal of a percent
        assert abs(share - np.floor(share) - 0.5) > 0.05


def test_the_fp16_bug_needs_scores_below_minus_16_and_left_padding():
    x, valid = rows()
    assert wild_bugs.symptom("fp16_min", x, valid=valid, shift=0.0)[0] == 0  # scores near 0: no overflow
    with np.errstate(over="ignore"):  # the overflow is the point
        assert np.float16(wild_bugs.FP16_MIN) + np.float16(-16.0) == -np.inf  # the maintainer's sum, rounded to even
    assert np.isfinite(np.float16(wild_bugs.FP16_MIN) + np.float16(-15.0))


def test_the_masked_bias_bug_is_latent_until_the_scores_drift():
    x, _ = rows()
    assert wild_bugs.symptom("masked_bias", x, shift=0.0)[0] < 1e-12
    assert check_causal(wild_bugs.layers("masked_bias", shift=0.0)[0], n=N, d=D, seed=SEED) == []


@pytest.mark.parametrize("seed", range(5))
def test_the_query_axis_mask_as_the_project_ran_it_is_latent(seed):
    """With the causal AND and the project's -10000: no row is NaN, no real query reads a pad, the check finds none."""
    x = np.random.default_rng(seed).standard_normal((N, D))
    valid = np.arange(N) < N - N_PAD
    nan_rows, pad_share = wild_bugs.query_axis_shipped(x, valid)
    assert nan_rows == 0 and pad_share == 0  # exp(-10000 - max) underflows to exactly 0 in float64
    shipped = lambda x, valid: wild_bugs.query_axis_bug(x, valid, fill=wild_bugs.HYUNWOONGKO_FILL)  # noqa: E731
    assert check_padding(shipped, n=N, d=D, n_pad=N_PAD, seed=seed, side="right") == []  # its pads came last
    assert check_padding(shipped, n=N, d=D, n_pad=N_PAD, seed=seed, side="left")  # padded on the left, caught


def test_keys_read():
    assert wild_bugs.keys_read("window", N, window=WINDOW) == (WINDOW + 1, WINDOW)
    assert wild_bugs.keys_read("top_left", N) == (1, N)

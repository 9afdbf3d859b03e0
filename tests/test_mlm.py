import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from site_reader import load_snippet

from primer import mlm


def test_page_example_masks_15_percent():
    rows, corrupted = mlm.mask_tokens(mlm.LONG_SENTENCE)
    assert len(mlm.LONG_SENTENCE) == 20
    assert [r[0] for r in rows] == [4, 6, 19]
    assert [r[2] for r in rows] == ["mask", "mask", "mask"]
    assert len(rows) == 3  # 15 % of 20 tokens
    assert corrupted.count(mlm.MASK) == 3
    assert [w for i, w in enumerate(corrupted) if i not in (4, 6, 19)] == [
        w for i, w in enumerate(mlm.LONG_SENTENCE) if i not in (4, 6, 19)
    ]


@given(st.integers(1, 200), st.integers(0, 2**32 - 1))
def test_bert_picks_round_rate_times_n(n, seed):
    tokens = [f"w{i}" for i in range(n)]
    rows, corrupted = mlm.mask_tokens(tokens, seed=seed)
    assert len(rows) == max(1, int(round(0.15 * n)))
    assert len({r[0] for r in rows}) == len(rows)
    for i, original, action, shown in rows:
        assert original == tokens[i] and corrupted[i] == shown
        assert action in ("mask", "random", "keep")
        assert (shown == mlm.MASK) == (action == "mask")
        if action == "keep":
            assert shown == original


def test_80_10_10_over_many_draws():
    tokens = [f"w{i}" for i in range(1000)]
    actions = [r[2] for seed in range(20) for r in mlm.mask_tokens(tokens, seed=seed)[0]]
    share = {a: actions.count(a) / len(actions) for a in ("mask", "random", "keep")}
    assert abs(share["mask"] - 0.8) < 0.03 and abs(share["random"] - 0.1) < 0.02 and abs(share["keep"] - 0.1) < 0.02


def test_corpus_never_contains_the_answer_in_place():
    for s in mlm.CORPUS:
        assert "cat sat" not in " ".join(s)


def test_both_sides_resolve_sat_and_left_only_does_not():
    both = mlm.fill_mask(sides="both")
    left = mlm.fill_mask(sides="left")
    prior = mlm.fill_mask(sides="none")
    assert both[0][0] == "sat" and round(both[0][1], 3) == 0.856
    assert left[0][0] == "ate" and round(left[0][1], 3) == 0.660
    assert prior[0][0] == "the"
    p_left = dict(mlm.fill_mask(sides="left", top=100))
    assert p_left["sat"] < both[0][1] / 10


def test_steps():
    steps = mlm.steps()
    assert [s["step"] for s in steps] == [0, 1, 2]
    assert steps[0]["reads"] == [] and steps[0]["filled"] is None
    assert steps[1]["reads"] == [0, 1, 3, 4, 5]
    assert steps[2]["filled"] == "sat"
    for s in steps:
        assert np.isclose(s["probs"].sum(), 1)


def test_counter_by_hand():
    m = mlm.ContextCounter(corpus=[["a", "b"], ["a", "c"]], left=1, right=0, alpha=1.0)
    # P(b) = (1+1)/(4+3); P(a at -1 | b) = (1+1)/(1+1*(4+1))
    p = np.exp(m.log_scores({-1: "a"}))
    assert np.isclose(p[m.index["b"]], 2 / 7 * 2 / 6)
    assert np.isclose(p[m.index["a"]], 3 / 7 * 1 / 7)  # 'a' is never preceded by 'a'; it has PAD at -1 twice


def test_context_of_pads_the_ends():
    assert mlm.context_of(["x", "y"], 0, 2, 2, "both") == {-2: mlm.PAD, -1: mlm.PAD, 1: "y", 2: mlm.PAD}
    assert mlm.context_of(["x", "y"], 1, 1, 1, "left") == {-1: "x"}
    assert mlm.context_of(["x", "y"], 1, 1, 1, "none") == {}


# ---- the chapter's numpy core agrees with primer


def test_chapter_6_core_numpy_equals_primer_on_random_inputs():
    from primer.attention import attention
    from primer.masks import full_mask

    core = load_snippet("06-encoder/core_numpy.py")
    rng = np.random.default_rng(6)
    words = [f"w{i}" for i in range(30)]
    for seed in range(40):
        n = int(rng.integers(1, 40))
        tokens = list(rng.choice(words, size=n))
        rate = float(rng.choice([0.15, 0.3, 0.5, 1.0]))
        assert core["mask_tokens"](tokens, rate, seed) == mlm.mask_tokens(tokens, rate=rate, seed=seed)[1]
        assert np.array_equal(core["full_mask"](n), full_mask(n))
        d = int(rng.integers(1, 6))
        x = rng.normal(size=(n, d))
        w_q, w_k, w_v = (rng.normal(size=(d, 3)) for _ in range(3))
        ours = core["self_attention"](x, w_q, w_k, w_v, full_mask(n))
        theirs = attention(x @ w_q, x @ w_k, x @ w_v, full_mask(n))[0]
        assert np.allclose(ours, theirs, atol=1e-12)

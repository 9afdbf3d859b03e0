import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from site_reader import load_snippet

from primer import mlm


def test_page_example_shows_each_case_of_the_80_10_10_rule_once():
    from primer.inputs.encoder import MASKING_EXAMPLE_SEED

    rows, corrupted = mlm.mask_tokens(mlm.LONG_SENTENCE, seed=MASKING_EXAMPLE_SEED)
    assert rows == [(5, "mat", "random", "fire"), (9, "slept", "keep", "slept"), (19, "window", "mask", mlm.MASK)]
    assert corrupted == [{5: "fire", 19: mlm.MASK}.get(i, w) for i, w in enumerate(mlm.LONG_SENTENCE)]


def test_default_draw_masks_15_percent():
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


# ---- BERT's rule on rows of ids, and the hidden words asked one at a time

VOCAB = (".", "a", "b", "c", mlm.MASK)
ROWS = np.array([[0, 1, 2, 3, 0, 1, 2, 0], [0, 3, 3, 3, 3, 3, 3, 0]])


def test_mask_rows_picks_15_percent_of_the_words_never_a_boundary_and_weighs_only_them():
    out, weights = mlm.mask_rows(ROWS, VOCAB, 0.15, seed=3, draws=5)
    assert out.shape == weights.shape == (10, 8)
    words = (np.repeat(ROWS, 5, axis=0) != 0).sum(axis=1)
    assert (weights.sum(axis=1) == np.maximum(1, np.round(0.15 * words))).all()  # mask_tokens' count, per row
    assert not weights[np.repeat(ROWS, 5, axis=0) == 0].any()  # the boundary is never picked
    changed = out != np.repeat(ROWS, 5, axis=0)
    assert not (changed & (weights == 0)).any()  # only picked positions change
    assert (out[changed] != 0).all()  # a random replacement is a word, never the boundary


def test_mask_rows_follows_80_10_10_over_many_rows():
    rows = np.tile(np.array([[0, 1, 2, 3, 1, 2, 3, 1, 2, 3]]), (2000, 1))
    out, weights = mlm.mask_rows(rows, VOCAB, 0.15, seed=0)
    shown, original = out[weights > 0], rows[weights > 0]
    hidden = (shown == 4).mean()
    assert abs(hidden - 0.8) < 0.03  # [MASK]; the rest is a random word (which may be the word itself) or kept
    assert abs((shown == original).mean() - (0.1 + 0.1 / 3)) < 0.02


def test_cloze_hides_each_word_once_and_nothing_else():
    inputs, rows, positions = mlm.cloze(ROWS, VOCAB)
    assert len(inputs) == (ROWS != 0).sum()
    for x, r, t in zip(inputs, rows, positions):
        assert x[t] == 4 and ROWS[r, t] != 0
        assert np.array_equal(np.delete(x, t), np.delete(ROWS[r], t))


def test_the_grammars_hidden_word_probabilities_by_hand():
    from primer.experiments.grammar import hidden_word_probs
    from primer.inputs.encoder import GRAMMAR

    left = hidden_word_probs(GRAMMAR, ("the", "cat"), ())
    assert set(left) == {"sat", "sang", "ate", "chased"} and all(abs(p - 0.25) < 1e-12 for p in left.values())
    assert hidden_word_probs(GRAMMAR, ("the", "cat"), ("on", "the", "mat", ".")) == {"sat": 1.0}
    animals = hidden_word_probs(GRAMMAR, ("the",), ("sat",))
    assert set(animals) == {"cat", "dog", "bird", "fox"}  # the verb says nothing of the animal
    an = hidden_word_probs(GRAMMAR, ("a", "fox", "ate"), ("egg", "."))
    assert abs(an["an"] - 0.5) < 1e-12 and abs(an["the"] - 0.5) < 1e-12


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

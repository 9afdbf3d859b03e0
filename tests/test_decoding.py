"""Decoding: the one greedy choice, temperature sampling, and the one generation loop (with or without a cache)."""

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays
from site_reader import load_snippet

from primer import softmax
from primer.config import Config
from primer.decoding import (
    draw,
    entropy_nats,
    frequencies,
    generate,
    greedy,
    sample,
    sampling_probs,
    temperature_softmax,
    top_k_filter,
    top_p_filter,
)
from primer.inputs.kv_cache import PROMPT, SEED, STEPS, VOCAB
from primer.inputs.sampling_pipeline import DRAW_SEED, N_DRAWS, NEXT_LOGITS, TABLE_TEMPERATURES
from primer.rounding import BOUND
from primer.transformer import decode, init_stack
from primer.vocab import to_words

CFG = Config()
PARAMS = init_stack(SEED, CFG)

finite = st.floats(-30, 30, allow_nan=False, allow_infinity=False)
logit_vectors = st.integers(1, 12).flatmap(lambda n: arrays(float, (n,), elements=finite))
temperatures = st.floats(0.05, 20.0)


@given(logit_vectors, temperatures)
def test_temperature_softmax_is_a_distribution_and_equals_softmax_of_scaled_logits(z, t):
    p = temperature_softmax(z, t)
    assert np.all(p >= 0) and np.isclose(p.sum(), 1.0)
    assert np.allclose(p, softmax(z / t))


@given(logit_vectors, temperatures, temperatures)
def test_lower_temperature_never_lowers_the_top_probability(z, t1, t2):
    lo, hi = sorted((t1, t2))
    top = int(np.argmax(z))
    assert temperature_softmax(z, lo)[top] >= temperature_softmax(z, hi)[top] - 1e-12


@given(logit_vectors, temperatures)
def test_temperature_keeps_the_order_of_the_logits(z, t):
    p = temperature_softmax(z, t)
    i, j = np.argmax(z), np.argmin(z)
    assert p[i] >= p[j]


def test_t_to_zero_is_greedy_and_large_t_is_uniform():
    assert temperature_softmax(NEXT_LOGITS, 1e-3).tolist() == np.eye(5)[0].tolist()
    assert np.allclose(temperature_softmax(NEXT_LOGITS, 1e6), 0.2, atol=1e-6)


def test_greedy_takes_the_argmax_and_breaks_ties_low():
    assert greedy(NEXT_LOGITS) == 0
    assert greedy([1.0, 3.0, 3.0]) == 1
    assert sample([1.0, 3.0, 3.0], 0, greedy=True) == 1
    assert sample(NEXT_LOGITS, 0.7, greedy=True) == 0  # greedy ignores a positive temperature


@settings(deadline=None)
@given(logit_vectors, temperatures, st.integers(0, 2**32 - 1))
def test_same_seed_same_draws(z, t, seed):
    a = [sample(z, t, rng=np.random.default_rng(seed)) for _ in range(3)]
    rng1, rng2 = np.random.default_rng(seed), np.random.default_rng(seed)
    assert [sample(z, t, rng=rng1) for _ in range(5)] == [sample(z, t, rng=rng2) for _ in range(5)]
    assert len(set(a)) == 1
    assert all(0 <= x < z.size for x in a)


@given(st.integers(2, 10), st.integers(0, 9), st.integers(0, 1000))
def test_draw_never_picks_an_id_of_probability_zero(n, zero, seed):
    p = np.ones(n)
    p[zero % n] = 0.0
    p /= p.sum()
    ids = draw(p, np.random.default_rng(seed), 200)
    assert zero % n not in ids.tolist()
    assert ids.min() >= 0 and ids.max() < n


def test_draw_with_all_mass_on_one_id_always_returns_it():
    for k in range(4):
        ids = draw(np.eye(4)[k], np.random.default_rng(k), 500)
        assert set(ids.tolist()) == {k}


def test_frequencies_approach_the_probabilities():
    for t in (0.3,) + TABLE_TEMPERATURES:
        f = frequencies(NEXT_LOGITS, t, N_DRAWS, DRAW_SEED)
        assert np.isclose(f.sum(), 1.0)
        assert np.abs(f - temperature_softmax(NEXT_LOGITS, t)).max() < 0.02


def pct(x):
    return f"{100 * x:.1f}%"


def test_frequency_table_numbers():
    # pinned on both language pages by tests/chapters/test_12_sampling_pipeline.py
    expected = {
        0.5: (["83.8%", "11.3%", "4.2%", "0.6%", "0.1%"], ["84.1%", "11.1%", "4.1%", "0.6%", "0.1%"]),
        1.0: (["58.7%", "21.6%", "13.1%", "4.8%", "1.8%"], ["58.8%", "21.4%", "13.4%", "4.7%", "1.8%"]),
        2.0: (["39.4%", "23.9%", "18.6%", "11.3%", "6.8%"], ["39.4%", "23.6%", "18.9%", "11.5%", "6.6%"]),
    }
    for t, (probs, freqs) in expected.items():
        assert [pct(p) for p in temperature_softmax(NEXT_LOGITS, t)] == probs
        assert [pct(f) for f in frequencies(NEXT_LOGITS, t, N_DRAWS, DRAW_SEED)] == freqs


def test_entropy_nats():
    assert abs(entropy_nats([1.0, 0.0, 0.0])) < 1e-15  # log(1) is 0; a bound, not a bit pattern
    assert np.isclose(entropy_nats(np.full(8, 1 / 8)), np.log(8))
    assert f"{entropy_nats(temperature_softmax(NEXT_LOGITS, 1.0)):.2f}" == "1.13"


def test_core_numpy_snippet_draws_what_primer_draws():
    namespace = load_snippet("12-sampling-pipeline/core_sampling.py")
    rng = np.random.default_rng(3)
    for seed in range(20):
        z = rng.normal(scale=3, size=int(rng.integers(1, 10)))
        t = float(rng.uniform(0.1, 3))
        assert np.allclose(namespace["temperature_softmax"](z, t), temperature_softmax(z, t))
        a, b = np.random.default_rng(seed), np.random.default_rng(seed)
        assert [namespace["sample"](z, t, a) for _ in range(10)] == [sample(z, t, rng=b) for _ in range(10)]
    with pytest.raises(ValueError, match="> 0"):
        namespace["temperature_softmax"](z, 0)


# ---- top-k and top-p: filters on the probabilities inside the one sample path

distributions = logit_vectors.map(lambda z: temperature_softmax(z, 1.0))  # softmax of finite logits: every entry > 0


@settings(deadline=None)
@given(distributions, st.data())
def test_top_k_keeps_exactly_the_k_most_likely_ids(p, data):
    k = data.draw(st.integers(1, p.size))
    q = top_k_filter(p, k)
    kept = np.flatnonzero(q)
    assert kept.size == k and np.isclose(q.sum(), 1.0)
    dropped = np.setdiff1d(np.arange(p.size), kept)
    assert dropped.size == 0 or p[kept].min() >= p[dropped].max()
    assert np.allclose(q[kept], p[kept] / p[kept].sum())  # the survivors keep their proportions


@settings(deadline=None)
@given(distributions, st.floats(1e-6, 1.0))
def test_top_p_keeps_the_smallest_most_likely_set_whose_mass_reaches_p(p, top):
    q = top_p_filter(p, top)
    kept = np.flatnonzero(q)
    mass = p[kept].sum()
    assert mass >= top - 1e-9 or kept.size == p.size  # reaches p (within rounding), or keeps all
    assert mass - p[kept].min() < top + 1e-9  # one fewer would not reach p: the smallest such set
    dropped = np.setdiff1d(np.arange(p.size), kept)
    assert dropped.size == 0 or p[kept].min() >= p[dropped].max()
    assert np.isclose(q.sum(), 1.0)


def test_ties_go_to_the_lower_id():
    flat = np.full(4, 0.25)
    assert np.flatnonzero(top_k_filter(flat, 3)).tolist() == [0, 1, 2]
    assert np.flatnonzero(top_p_filter(flat, 0.5)).tolist() == [0, 1]  # 0.25 + 0.25 reaches 0.5 exactly
    assert np.flatnonzero(top_p_filter(flat, 0.51)).tolist() == [0, 1, 2]
    assert np.flatnonzero(top_k_filter([0.1, 0.3, 0.3, 0.3], 2)).tolist() == [1, 2]


def test_the_extremes_of_each_filter():
    p = temperature_softmax(NEXT_LOGITS, 1.0)
    assert top_k_filter(p, 1).tolist() == top_p_filter(p, 1e-9).tolist() == np.eye(5)[0].tolist()  # both become greedy
    assert np.allclose(top_k_filter(p, 5), p) and np.allclose(top_p_filter(p, 1.0), p)  # both keep everything


def test_the_chapter_12_example_and_the_order_of_the_filters():
    p = temperature_softmax(NEXT_LOGITS, 1.0)  # 58.7 %, 21.6 %, 13.1 %, 4.8 %, 1.8 %
    assert np.count_nonzero(top_p_filter(p, 0.9)) == 3  # 58.7 + 21.6 < 90 <= 58.7 + 21.6 + 13.1
    assert np.count_nonzero(top_p_filter(p, 0.8)) == 2
    assert np.count_nonzero(sampling_probs(NEXT_LOGITS, 1.0, top_k=4, top_p=0.9)) == 3
    assert np.count_nonzero(sampling_probs(NEXT_LOGITS, 1.0, top_k=2, top_p=0.99)) == 2  # top-k first, then top-p
    flatter = temperature_softmax(NEXT_LOGITS, 2.0)  # the page: at a higher T, top-p keeps more
    assert np.count_nonzero(top_p_filter(flatter, 0.9)) == 4 and np.count_nonzero(top_k_filter(flatter, 3)) == 3


@settings(deadline=None)
@given(logit_vectors, temperatures, st.data(), st.integers(0, 2**32 - 1))
def test_sample_never_draws_a_filtered_id(z, t, data, seed):
    k = data.draw(st.integers(1, z.size))
    top = data.draw(st.floats(0.05, 1.0))
    allowed = np.flatnonzero(sampling_probs(z, t, top_k=k, top_p=top))
    rng = np.random.default_rng(seed)
    assert all(sample(z, t, rng=rng, top_k=k, top_p=top) in allowed for _ in range(20))


def test_filtered_frequencies_follow_the_filtered_probabilities():
    f = frequencies(NEXT_LOGITS, 1.0, N_DRAWS, DRAW_SEED, top_p=0.9)
    assert f[3] == f[4] == 0.0
    assert np.abs(f - sampling_probs(NEXT_LOGITS, 1.0, top_p=0.9)).max() < 0.02


# ---- the loop


def test_toy_vocabulary_fits_the_default_config():
    assert len(VOCAB) == CFG.vocab_size == len(set(VOCAB))
    assert to_words(PROMPT, VOCAB) == ["the", "cat", "sat"]
    assert all("<" not in w and ">" not in w for w in VOCAB)  # plotly would read them as HTML


def test_each_step_feeds_the_previous_prediction_back_in():
    steps = []
    out = generate(PROMPT, PARAMS, CFG, STEPS, record=steps)
    assert len(steps) == STEPS and list(out) == list(PROMPT) + [s["next"] for s in steps]
    assert list(steps[0]["input"]) == list(PROMPT)
    for before, after in zip(steps, steps[1:]):
        assert list(after["input"]) == list(before["input"]) + [before["next"]]
    for s in steps:
        assert np.abs(s["logits"] - decode(s["input"], PARAMS, CFG)[-1]).max() < BOUND  # the whole prefix, run again
        assert s["next"] == greedy(s["logits"])


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, CFG.vocab_size - 1), min_size=1, max_size=6), st.integers(0, 6))
def test_generate_appends_n_new_tokens_and_counts_every_rerun(prompt, n_new):
    ops = Counter()
    out = generate(np.array(prompt), PARAMS, CFG, n_new, ops=ops)
    assert list(out[: len(prompt)]) == prompt and len(out) == len(prompt) + n_new
    lengths = range(len(prompt), len(prompt) + n_new)  # step s runs on the whole prefix so far
    assert ops["kv_rows"] == CFG.n_layers * sum(lengths)
    assert ops["scores"] == CFG.n_layers * CFG.n_heads * sum(n * n for n in lengths)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(0, CFG.vocab_size - 1), min_size=1, max_size=6), st.integers(1, 6))
def test_a_cached_loop_runs_one_new_row_per_step(prompt, n_new):
    ops = Counter()
    generate(np.array(prompt), PARAMS, CFG, n_new, cached=True, ops=ops)
    rows = len(prompt) + n_new - 1  # the prompt once, then one new token per step
    assert ops["kv_rows"] == ops["q_rows"] == CFG.n_layers * rows


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_sampled_generation_is_seeded(seed, cached):
    a = generate(PROMPT, PARAMS, CFG, 5, greedy=False, rng=np.random.default_rng(seed), cached=cached)
    b = generate(PROMPT, PARAMS, CFG, 5, greedy=False, rng=np.random.default_rng(seed))
    assert np.array_equal(a, b)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_temperature_slider_has_one_step_per_temperature(lang):
    from primer.figures import sampling_pipeline as figs

    temps = (0, 0.5, 1.0, 2.0)
    probs = [np.eye(5)[0]] + [temperature_softmax(NEXT_LOGITS, t) for t in temps[1:]]
    fig = figs.temperature(temps, probs, probs, [entropy_nats(p) for p in probs], n_draws=10, active=2, lang=lang)
    steps = fig.layout.sliders[0].steps
    assert len(steps) == 4 and len(fig.data) == 12
    assert steps[0].label == ("0（贪心）" if lang == "zh" else "0 (greedy)")
    assert [sum(s.args[0]["visible"]) for s in steps] == [3] * 4
    assert [t.visible for t in fig.data].count(True) == 3 and fig.data[6].visible
    assert list(fig.data[0].x) == (
        ["垫子", "沙发", "屋顶", "月亮", "钢琴"] if lang == "zh" else ["mat", "sofa", "roof", "moon", "piano"]
    )
    table = figs.frequency_table(temps, probs, probs, lang=lang)
    assert table.count("\n") == 6 and "100.0% / 100.0%" in table


@settings(max_examples=10, deadline=None)
@given(st.integers(0, 2**32 - 1), st.booleans())
def test_the_one_loop_reaches_the_filters(seed, cached):
    top1 = generate(PROMPT, PARAMS, CFG, 5, greedy=False, top_k=1, rng=np.random.default_rng(seed), cached=cached)
    assert np.array_equal(top1, generate(PROMPT, PARAMS, CFG, 5))  # top_k = 1 samples the argmax: greedy
    steps = []
    generate(PROMPT, PARAMS, CFG, 5, greedy=False, top_k=3, top_p=0.5, rng=np.random.default_rng(seed), record=steps)
    for s in steps:  # every drawn id survived both filters
        assert sampling_probs(s["logits"], 1.0, top_k=3, top_p=0.5)[s["next"]] > 0

"""Chapter 12 (sampling and the seven-stage pipeline) over the built site: the numbers primer printed, the controls."""

import html as htmllib
import re

import pytest
from page_tables import cell_texts, has_row
from site_reader import LANGS

GREEDY = {"zh": "0（贪心）", "en": "0 (greedy)"}


SOURCE = {"zh": "源 ", "en": "source "}


KEPT = {
    "zh": ("不过滤", "、", ["垫子", "沙发", "屋顶", "月亮", "钢琴"]),
    "en": ("no filter", ", ", ["mat", "sofa", "roof", "moon", "piano"]),
}


@pytest.mark.parametrize("lang", LANGS)
def test_ch12_temperature_table(read_page, lang):
    page = read_page(lang, "12-sampling-pipeline.md")
    assert has_row(page, [GREEDY[lang], "100.0% / 100.0%"] + ["0.0% / 0.0%"] * 4)
    assert has_row(page, ["0.5", "83.8% / 84.1%", "11.3% / 11.1%", "4.2% / 4.1%", "0.6% / 0.6%", "0.1% / 0.1%"])
    assert has_row(page, ["1", "58.7% / 58.8%", "21.6% / 21.4%", "13.1% / 13.4%", "4.8% / 4.7%", "1.8% / 1.8%"])
    assert has_row(page, ["2", "39.4% / 39.4%", "23.9% / 23.6%", "18.6% / 18.9%", "11.3% / 11.5%", "6.8% / 6.6%"])


@pytest.mark.parametrize("lang", LANGS)
def test_ch12_top_k_and_top_p(read_page, lang):
    page = read_page(lang, "12-sampling-pipeline.md")
    none, sep, words = KEPT[lang]
    assert has_row(page, [none, sep.join(words), "100.0%", "58.7%", "21.6%", "13.1%", "4.8%", "1.8%"])
    assert has_row(page, ["top-k = 1", words[0], "58.7%", "100.0%"] + ["0.0%"] * 4)
    for name in ("top-k = 3", "top-p = 0.9"):  # the same three candidates, renormalised
        assert has_row(page, [name, sep.join(words[:3]), "93.4%", "62.9%", "23.1%", "14.0%", "0.0%", "0.0%"]), name
    assert has_row(page, ["top-p = 0.95", sep.join(words[:4]), "98.2%", "59.8%", "22.0%", "13.3%", "4.9%", "0.0%"])
    figure = re.search(r'id="fig-top-k-top-p".*?</script>', page, re.S).group(0)
    assert figure.count('"method":"update"') == 8  # one menu item per filter setting
    assert '"active":6' in figure  # the figure opens on top-p = 0.9


@pytest.mark.parametrize("lang", LANGS)
def test_ch12_temperature_zero_is_refused_on_the_page(read_page, lang):
    page = htmllib.unescape(read_page(lang, "12-sampling-pipeline.md"))
    assert "ValueError: temperature must be > 0 to sample, got 0.0" in page
    assert "[1, 0, 0, 0, 2, 2, 1, 1, 0, 3, 2, 0] greedy: 0" in page  # the numpy core's seeded draws


@pytest.mark.parametrize("lang", LANGS)
def test_ch12_stage_table_and_generated_text(read_page, lang):
    page = read_page(lang, "12-sampling-pipeline.md")
    cs = cell_texts(page)
    shapes = [
        cs[i + 2]
        for i in range(0, len(cs) - 3)
        if cs[i + 1] in ("tokenize", "embed", "blocks", "final_norm", "logits", "sample", "loop")
    ]
    assert shapes == ["7", "7 × 16", "7 × 16", "7 × 16", "7 × 32", "1", "9 × 15"]
    for glimpse in (
        "20, 8, 5, 0 = 'the␣' …",
        "0.35, 0.44, −1.10, 1.30 …",
        "0.03, 0.06, −2.58, −0.68 …",
        "−0.21, −0.19, −1.76, −0.63 …",
        "−3.21, −1.46, 4.41, 4.78 …",
        "10 = 'j'",
    ):
        assert glimpse in cs, glimpse
    assert "<code>'the catjjjjjjjj'</code>" in page


@pytest.mark.parametrize("lang", LANGS)
def test_ch12_only_stage_3_differs(read_page, lang):
    page = read_page(lang, "12-sampling-pipeline.md")
    src = SOURCE[lang]
    for i, c in enumerate("the␣cat"):
        label = f"{i}（{c}）" if lang == "zh" else f"{i} ({c})"
        reads = "0" if i == 0 else f"0–{i}"
        assert has_row(page, [label, "0–6", reads, f"{reads} + {src}0–6"]), label


def trained():
    from primer import writing
    from primer.experiments.trained_decoder import trained_decoder
    from primer.inputs.decoder import EXPERIMENT, SCORE_N
    from primer.inputs.sampling_pipeline import (
        TRAINED_N_NEW,
        TRAINED_NEXT,
        TRAINED_PROMPT,
        TRAINED_SAMPLES,
        TRAINED_SEEDS,
    )

    data, cfg, decoder = trained_decoder(**EXPERIMENT)
    model, prompt = (decoder.params, cfg, data.vocab), TRAINED_PROMPT.split()
    probs = writing.next_word_probs(*model, prompt, TRAINED_NEXT)
    samples = writing.sample_scores(*model, prompt, TRAINED_SAMPLES, TRAINED_SEEDS, TRAINED_N_NEW, data.words, SCORE_N)
    return data, probs, samples


@pytest.mark.parametrize("lang", LANGS)
def test_the_trained_models_distribution_and_samples_are_printed_and_the_prose_holds(read_page, lang):
    import numpy as np
    from page_tables import table_with

    from primer.figures.sampling_pipeline import setting_name
    from primer.figures.tables import pct
    from primer.inputs.sampling_pipeline import TRAINED_NEXT, TRAINED_SAMPLES
    from primer.language import labels

    data, probs, samples = trained()
    html = read_page(lang, "12-sampling-pipeline.md")
    text = labels("sampling", lang)
    table = table_with(html, text["word"])
    assert table[0][1:] == [setting_name(*s) for s in TRAINED_NEXT]
    rows = {r[0]: r[1:] for r in table[1:]}
    at = {s: k for k, s in enumerate(TRAINED_NEXT)}
    p1 = probs[at[(1.0, None, None)]]
    assert rows["slept"][at[(1.0, None, None)]] == pct(p1[data.vocab.index("slept")])
    verbs = [data.vocab.index(w) for w in ("sat", "slept", "sang", "ate")]  # what the grammar allows after "the cat"
    assert p1[verbs].sum() > 0.98 and p1[verbs].max() > 1.1 * p1[verbs].min()  # nearly all, not in equal parts
    assert np.count_nonzero(probs[at[(1.0, 2, None)]][verbs]) == 2  # top-k = 2 keeps two of the four
    assert sorted(np.flatnonzero(probs[at[(1.0, None, 0.9)]])) == sorted(verbs)  # top-p = 0.9: the four, no tail
    tail = [1 - probs[at[(t_, None, None)]][verbs].sum() for t_ in (0.5, 1.0, 2.0)]
    assert tail[0] < tail[1] < tail[2]  # the temperature empties or fills the tail
    body = table_with(html, text["cols_samples"][1])[1:]
    assert [r[0] for r in body] == [setting_name(*s) for s in TRAINED_SAMPLES]
    share = {}
    for s, (words, (found, total)), row in zip(TRAINED_SAMPLES, samples, body):
        assert row[1:] == [" ".join(words), f"{found} / {total} = {pct(found / total, 0)}"]
        share[s] = found / total
    assert share[(0.5, None, None)] == 1.0 and share[(1.0, None, None)] > 0.95  # low temperature: the grammar's pieces
    hot = share[(2.0, None, None)]
    assert hot < 0.9
    for s in ((2.0, 2, None), (2.0, None, 0.9)):  # either filter takes back most of the loss
        assert share[s] - hot > 0.5 * (1 - hot)


@pytest.mark.parametrize("lang", LANGS)
def test_two_temperatures_drawing_with_the_same_seeds_often_write_the_same_and_the_page_says_why(read_page, lang):
    import numpy as np
    from page_tables import table_with

    from primer import writing
    from primer.experiments.trained_decoder import trained_decoder
    from primer.inputs.decoder import EXPERIMENT
    from primer.inputs.sampling_pipeline import (
        SAME_DRAWS_TEMPERATURES,
        TRAINED_N_NEW,
        TRAINED_PROMPT,
        TRAINED_SAMPLES,
        TRAINED_SEEDS,
    )
    from primer.language import labels

    low, high = SAME_DRAWS_TEMPERATURES
    assert {(low, None, None), (high, None, None)} <= set(TRAINED_SAMPLES)  # two rows of the samples' table
    data, cfg, decoder = trained_decoder(**EXPERIMENT)
    model, prompt = (decoder.params, cfg, data.vocab), TRAINED_PROMPT.split()
    p_low, p_high = writing.next_word_probs(*model, prompt, [(low, None, None), (high, None, None)])
    u = (np.arange(200_000) + 0.5) / 200_000  # every u in [0, 1), finely: the share picking the same word at both
    same_word = np.mean(np.searchsorted(np.cumsum(p_low), u, "right") == np.searchsorted(np.cumsum(p_high), u, "right"))
    same = [
        writing.write(*model, prompt, TRAINED_N_NEW, seed=s, temperature=low)
        == writing.write(*model, prompt, TRAINED_N_NEW, seed=s, temperature=high)
        for s in TRAINED_SEEDS
    ]
    t = labels("sampling", lang)
    rows = table_with(read_page(lang, "12-sampling-pipeline.md"), t["same_cols"][1])
    assert rows[0] == [t["same_cols"][0].format(low=low, high=high), t["same_cols"][1]]
    first, whole = rows[1:]
    assert first[0] == t["same_next"].format(prompt=TRAINED_PROMPT).replace("`", "")
    assert first[1].endswith("%") and abs(float(first[1][:-1]) / 100 - same_word) <= 0.005 + 1e-4  # whole percent
    assert whole == [t["same_samples"].format(n=TRAINED_N_NEW), f"{sum(same)} / {len(TRAINED_SEEDS)}"]
    assert same_word > 0.5  # the prose: most values of u fall in the same word's bin at both temperatures
    assert 0 < sum(same) < len(same)  # some seeds write the same sample at both, and not all

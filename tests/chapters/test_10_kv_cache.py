"""Chapter 10 (the generation loop and the KV cache) over the built site: the numbers primer printed."""

import html as htmllib
import re

import numpy as np
import pytest
from page_tables import table_with
from site_reader import LANGS

from primer import attention, causal_mask
from primer.figures.tables import integer
from primer.language import labels

PAGE = "10-kv-cache.md"


@pytest.mark.parametrize("lang", LANGS)
def test_667x_at_1000_steps(read_page, lang):
    page = read_page(lang, PAGE)
    assert "<strong>667×</strong>" in page
    header = labels("kv_cache_tables", lang)["ratio"]
    row = [r for r in table_with(page, header) if r[0] == integer(1000, lang)][0]
    assert row[1:] == [
        integer(333_833_500, lang),
        integer(500_500, lang),
        "667×",
        "334×",
        "500.5×",
    ]  # full tables, lower triangle, projections/FFN
    figure = (
        re.search(r'id="fig-work-curves".*?</script>', page, re.S).group(0).replace("\\u00d7", "×")
    )  # plotly escapes ×
    assert "667×" in figure  # the slider's default state, N = 1,000


@pytest.mark.parametrize("lang", LANGS)
def test_cached_decoding_equals_full_recompute_on_the_page(read_page, lang):
    page = read_page(lang, PAGE)
    header = labels("kv_cache_tables", lang)["diff"]
    rows = table_with(page, header)[1:]
    assert len(rows) >= 3
    assert len({r[0] for r in rows}) > 1 and len({r[1] for r in rows}) > 1 and len({r[2] for r in rows}) > 1
    assert all(r[3] == "< 1e-12" for r in rows)  # rounding, whose digits depend on the CPU


@pytest.mark.parametrize("lang", LANGS)
def test_the_causal_mask_keeps_old_positions_still_and_the_full_mask_does_not(read_page, lang):
    page = read_page(lang, PAGE)
    header = labels("kv_cache_tables", lang)["causal"]
    rows = table_with(page, header)[1:]
    assert all(r[1] == "< 1e-12" for r in rows)  # causal: nothing old moves beyond rounding
    assert rows[0][2] == rows[1][2] == "< 1e-12"  # full: layer 1's K and V read no other position
    assert float(rows[-1][2]) > 1e-3  # bidirectional: the old outputs move


@pytest.mark.parametrize("lang", LANGS)
def test_old_queries_do_not_matter(read_page, lang):
    page = read_page(lang, PAGE)
    header = labels("kv_cache_tables", lang)["changed"]
    q, k, v = table_with(page, header)[1:]
    assert q[1] == "< 1e-12" and float(k[1]) > 1e-3 and float(v[1]) > 1e-3


@pytest.mark.parametrize("lang", LANGS)
def test_counted_work_matches_the_cost_model(read_page, lang):
    page = read_page(lang, PAGE)
    rows = table_with(page, labels("kv_cache_tables", lang)["counter"])[1:]
    assert {r[1] for r in rows} == {"scores", "kv_rows"} and len(rows) >= 6
    for r in rows:
        assert r[2] == r[3] and r[4] == r[5] and r[6] == "✓"


@pytest.mark.parametrize("lang", LANGS)
def test_the_dozen_lines_print_their_check(read_page, lang):
    rng = np.random.default_rng(0)  # the snippet's draws, in its order; primer's causal attention gives the logits
    w_q, w_k, w_v, x, w_out = (rng.normal(size=shape) for shape in ((8, 4), (8, 4), (8, 4), (5, 8), (4, 10)))
    ids = (attention(x @ w_q, x @ w_k, x @ w_v, causal_mask(5))[0] @ w_out).argmax(-1).tolist()
    page = htmllib.unescape(read_page(lang, PAGE))
    assert "cached rows: 5   logits at every step, max |cached - recomputed| < 1e-12: True" in page
    assert f"greedy next token ids, cached: {ids}   recomputed: {ids}" in page
    assert len(set(ids)) > 1  # the steps choose differently: the check compares more than one column


@pytest.mark.parametrize("lang", LANGS)
def test_the_trained_model_writes_the_same_text_with_and_without_the_cache(read_page, lang):
    import numpy as np

    from primer.decoding import generate
    from primer.experiments.trained_decoder import trained_decoder
    from primer.inputs.decoder import EXPERIMENT
    from primer.inputs.kv_cache import TRAINED_N_NEW, TRAINED_PROMPTS
    from primer.language import labels
    from primer.vocab import to_ids, to_words

    data, cfg, decoder = trained_decoder(**EXPERIMENT)
    text = labels("kv_cache_tables", lang)
    rows = table_with(read_page(lang, PAGE), text["cols_trained"][2])[1:]
    assert [r[0] for r in rows] == list(TRAINED_PROMPTS)
    for prompt, row in zip(TRAINED_PROMPTS, rows):
        ids = to_ids(prompt.split(), data.vocab)
        a, b = [], []
        full = generate(ids, decoder.params, cfg, TRAINED_N_NEW, record=a)
        cached = generate(ids, decoder.params, cfg, TRAINED_N_NEW, cached=True, record=b)
        assert np.array_equal(full, cached)
        assert max(np.abs(x["logits"] - y["logits"]).max() for x, y in zip(a, b)) < 1e-12
        assert (
            row[1] == row[2] == " ".join(to_words(full, data.vocab)) and row[3] == text["yes"] and row[4] == "< 1e-12"
        )


@pytest.mark.parametrize("lang", LANGS)
def test_the_loop_runs_the_trained_decoder_and_writes_the_grammars_sentences(read_page, lang):
    from primer.decoding import generate
    from primer.experiments.grammar import all_sentences
    from primer.experiments.trained_decoder import trained_decoder
    from primer.inputs.decoder import EXPERIMENT
    from primer.inputs.kv_cache import LOOP_PROMPT, STEPS
    from primer.vocab import to_ids, to_words

    data, cfg, decoder = trained_decoder(**EXPERIMENT)
    words = to_words(generate(to_ids(LOOP_PROMPT.split(), data.vocab), decoder.params, cfg, STEPS), data.vocab)
    assert f"<code>{' '.join(words)}\n</code>" in htmllib.unescape(read_page(lang, PAGE))  # the loop's printed line
    assert words[0] == "." and "." in words[1:-1]  # rows start at the full stop; at least one whole sentence
    cut = len(words) - 1 - words[::-1].index(".")  # the last full stop
    whole = " ".join(words[1 : cut + 1]).replace(" . ", " .|").split("|")
    assert all(tuple(s.split()) in all_sentences(EXPERIMENT["grammar"]) for s in whole), whole
    begun = tuple(words[cut + 1 :])  # the sentence the STEPS cut off is the beginning of one
    assert any(s[: len(begun)] == begun for s in all_sentences(EXPERIMENT["grammar"])), begun

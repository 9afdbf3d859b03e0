"""Chapter 7 (decoder-only) over the built site: the numbers primer printed, the figures and their controls."""

import json
import re

import numpy as np
import pytest
from page_tables import table_with
from site_reader import LANGS, page_figures, runnable_blocks, table_rows

from primer import leak, mlm
from primer.config import Config
from primer.inputs.decoder import CHANGED_POSITION, CHANGED_WORD
from primer.inputs.encoder import SEED
from primer.vocab import CAT_VOCAB

PAGE = "07-decoder.md"


@pytest.mark.parametrize("lang", LANGS)
def test_leak_table_both_outcomes(read_page, lang):
    html = read_page(lang, PAGE)
    _, _, result = leak.word_leak_test(
        mlm.SENTENCE, CHANGED_POSITION, CHANGED_WORD, CAT_VOCAB, Config(vocab_size=len(CAT_VOCAB)), SEED
    )
    rows = {r[0]: r for r in table_rows(html) if r and r[0] in ("0", "1", "2", "3", "4", "5", "0–4")}
    assert [rows[str(i)][2] for i in range(5)] == ["0.0"] * 5  # mask on: bit-identical
    assert [rows[str(i)][3] for i in range(5)] == ["0.8888", "2.7798", "1.0022", "0.7824", "0.9923"]
    assert rows["5"][2:] == ["6.6464", "6.7144"]
    assert rows["0–4"][2:] == ["0.0", "2.7798"]
    assert result.earlier_masked < 1e-12 and abs(result.earlier_unmasked - 2.7798) < 1e-4  # rounding-level bounds
    assert "<strong>0.0</strong>" in html


@pytest.mark.parametrize("lang", LANGS)
def test_section_3_1_points_to_the_quote_in_chapter_9(read_page, lang):
    html = read_page(lang, PAGE)
    assert "§3.1" in html and 'href="../09-choosing/"' in html


# ---- training under broken masks: the page prints what primer measures, over every seed, and the claims hold


def experiment():
    from primer import writing
    from primer.experiments import broken_masks
    from primer.inputs.decoder import EXPERIMENT, SEEDS, WRITING

    data, cfg, runs = broken_masks.mask_runs(**EXPERIMENT)
    args = (WRITING["prompts"], WRITING["n_new"], WRITING["sample_seed"], WRITING["n_samples"])
    written = {n: writing.texts(r.params, cfg, data.vocab, *args) for n, r in runs.items()}
    measured, refs = broken_masks.measures(EXPERIMENT, SEEDS, **WRITING)
    return data, runs, written, measured, refs


def spread_of(values, digits=2):  # the page's "median (min–max)" as three floats
    return [float(np.median(values)), min(values), max(values)]


def parse_spread(cell):  # "0.74 (0.71–0.79)" or "98% (96%–99%)" -> [median, min, max]
    numbers = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", cell.replace("%", ""))]
    assert len(numbers) == 3, cell
    return numbers


def close(printed, value, digits=2):
    return abs(printed - value) <= 0.5 * 10**-digits + 1e-9


@pytest.mark.parametrize("lang", LANGS)
def test_corpus_table_prints_the_split_the_overlap_the_floor_and_chance(read_page, lang):
    from primer.language import labels

    html = read_page(lang, PAGE)
    data, _, _, _, _ = experiment()
    body = {r[0]: r for r in table_with(html, labels("decoder_tables", lang)["cols_corpus"][1])[1:]}
    text = labels("decoder_tables", lang)
    assert body[text["train"]][1:] == [
        str(len(data.train_part)),
        str(data.n_sentences),
        str(len(data.words)),
        "96 × 16",
    ]
    assert body[text["heldout"]][1] == str(len(data.heldout_part))
    note = text["corpus_note"].format(
        v=len(data.vocab),
        possible=data.n_possible,
        held=len(data.heldout_part),
        kept=len(data.train_part),
        overlap=0,
        floor=f"{data.floor:.2f}",
        train_floor=f"{data.train_floor:.2f}",
        chance=f"{data.chance:.2f}",
    )
    assert note.replace('"', "&quot;") in html or note in html
    assert data.overlap == 0 and abs(data.floor - 0.7677) < 5e-4 and abs(data.chance - np.log(20)) < 1e-12
    assert abs(data.train_floor - 0.7306) < 5e-4  # the training side's own floor: lower than the grammar's


@pytest.mark.parametrize("lang", LANGS)
def test_runs_table_prints_median_and_range_over_every_seed(read_page, lang):
    from primer.inputs.decoder import SEEDS
    from primer.language import labels

    html = read_page(lang, PAGE)
    _, runs, _, measured, refs = experiment()
    names = labels("decoder", lang)["runs"]
    head = labels("decoder_tables", lang)["cols_runs"]
    body = {r[0]: r for r in table_with(html, head[3])[1:]}
    assert list(body)[:-1] == [names[n] for n in runs] and len(SEEDS) == 5 and len(runs) == 6
    for name, m in measured.items():
        row = body[names[name]]
        for col, key in ((1, "train"), (2, "val"), (3, "honest")):
            assert all(close(p, v) for p, v in zip(parse_spread(row[col]), spread_of(m[key]))), (name, key)
        shares = [f / t for f, t in m["score"]]
        assert all(close(p, 100 * v, 0) for p, v in zip(parse_spread(row[4]), spread_of(shares)))
    grammar_row = body[labels("decoder_tables", lang)["grammar_row"]]
    assert all(close(p, v) for p, v in zip(parse_spread(grammar_row[3]), spread_of(refs["grammar"])))
    # The note prints both floors: the grammar's for held-out rows, the training side's (one per seed) for training
    assert np.allclose(spread_of(refs["train_floor"]), [0.7278, 0.7234, 0.7306], atol=5e-4)  # below 0.7677: every seed
    note = labels("decoder_tables", lang)["references"].split("{chance}")[0]
    assert note.format(floor="0.77", train_floor="0.73 (0.72–0.73)", v=20) in html


@pytest.mark.parametrize("lang", LANGS)
def test_choice_table_prints_how_sure_each_model_is_where_the_grammar_leaves_a_choice(read_page, lang):
    from primer.language import labels

    html = read_page(lang, PAGE)
    _, _, _, measured, refs = experiment()
    names = labels("decoder", lang)["runs"]
    body = {r[0]: r for r in table_with(html, labels("decoder_tables", lang)["cols_choice"][1])[1:]}
    for name, m in measured.items():
        row = body[names[name]]
        assert all(close(p, v) for p, v in zip(parse_spread(row[1]), spread_of(m["p_own"])))
        assert all(close(p, v) for p, v in zip(parse_spread(row[2]), spread_of(m["p_causal"])))
    grammar_row = body[labels("decoder_tables", lang)["grammar_row"]]
    assert all(close(p, v) for p, v in zip(parse_spread(grammar_row[1]), spread_of(refs["grammar_p"])))


@pytest.mark.parametrize("lang", LANGS)
def test_generations_table_shows_each_distinct_model_once_per_prompt(read_page, lang):
    from primer.inputs.decoder import PROMPTS
    from primer.language import labels

    html = read_page(lang, PAGE)
    _, runs, written, _, _ = experiment()
    rows = table_with(html, labels("decoder_tables", lang)["cols_texts"][3])[1:]
    assert len(rows) == len(PROMPTS) * (len(runs) - 1)  # no mask and 0 added wrote the same: one row
    greedy = {(r[0], r[1]): r[2] for r in rows}
    names = labels("decoder", lang)["runs"]
    prompt = PROMPTS[0]
    assert greedy[(prompt, names["causal"])] == " ".join(written["causal"][prompt][0][len(prompt.split()) :])
    assert greedy[(prompt, f"{names['no_mask']} = {names['added_0']}")] == " ".join(
        written["no_mask"][prompt][0][len(prompt.split()) :]
    )
    for prompt in PROMPTS:  # the prose: the inverted run mostly repeats words of its prompt
        k = len(prompt.split())
        new = written["inverted"][prompt][0][k:]
        assert sum(w in prompt.split() for w in new) > len(new) / 2, prompt


@pytest.mark.parametrize("lang", LANGS)
def test_training_curves_draw_both_panels_the_floor_and_chance(read_page, lang):
    from primer.language import labels

    html = read_page(lang, PAGE)
    data, layout, _ = page_figures(html)["fig-training-curves"]
    base, runs, _, _, _ = experiment()
    text = labels("decoder", lang)
    train = [t for t in data if t.get("mode") == "lines" and len(t["y"]) > 2]  # the references have 2 points
    assert len(train) == 5  # six runs, two of them identical
    honest = [t for t in data if t.get("mode") == "lines+markers"]
    assert len(honest) == 5 and all(t["yaxis"] == "y2" for t in honest)
    causal = next(t for t in honest if t["line"]["dash"] == "solid")
    assert np.allclose(causal["y"], np.round(runs["causal"].curve, 2))
    assert np.array_equal(causal["x"], runs["causal"].curve_steps)
    names = [t["name"] for t in data if t.get("showlegend") is not False]
    assert text["chance"].format(v=f"{base.chance:.2f}") in names
    # Each panel draws its own rows' floor: the training side's on top, the grammar's below
    floors = {t["name"]: t["yaxis"] for t in data if t.get("legendgroup") in ("floor", "train_floor")}
    assert floors == {
        text["train_floor"].format(v=f"{base.train_floor:.2f}"): "y",
        text["floor"].format(v=f"{base.floor:.2f}"): "y2",
    }
    assert all(t.get("showlegend") is not False or t["name"] in names for t in data)  # every mark has a legend entry


@pytest.mark.parametrize("lang", LANGS)
def test_visible_range_starts_at_the_first_token_and_same_row_says_it_averages_heads(read_page, lang):
    from primer.language import labels

    html = read_page(lang, PAGE)
    figs = page_figures(html)
    layout = figs["fig-visible-range"][1]
    assert layout["sliders"][0]["active"] == 0
    assert labels("decoder", lang)["mean_heads"].format(h=4) in json.dumps(figs["fig-same-row"][1], ensure_ascii=False)


# ---- the playground: the reader trains the page's causal run again, under a mask of their own


def playground_lines(html):
    """Return the playground block's printed output, as ((training floor, floor), chance, [(step, train, held-out)])."""
    ((_, _, printed),) = [b for b in runnable_blocks(html) if b[0] == "07-decoder/playground.py"]
    head, _, *rows = printed.strip().splitlines()
    train_floor, floor, chance = (float(x) for x in re.findall(r"\d+\.\d+", head))
    return (train_floor, floor), chance, [(int(s), float(a), float(b)) for s, a, b in (r.split() for r in rows)]


@pytest.mark.parametrize("lang", LANGS)
def test_playground_as_written_repeats_the_pages_causal_run(read_page, lang):
    from primer.inputs.decoder import EXPERIMENT

    (train_floor, floor), chance, rows = playground_lines(read_page(lang, PAGE))
    data, runs, _, _, _ = experiment()
    causal, every = runs["causal"], EXPERIMENT["training"]["every"]
    assert close(train_floor, data.train_floor) and close(floor, data.floor) and close(chance, data.chance)
    assert [s for s, _, _ in rows] == list(causal.curve_steps[1:]) == list(range(every, 201, every))
    # the same batches, step by step: each line's training loss is the mean of the steps since the line before
    assert all(close(train, np.mean(causal.history[s - every : s])) for s, train, _ in rows)
    assert all(close(held, value) for (_, _, held), value in zip(rows, causal.curve[1:]))


@pytest.mark.parametrize("lang", LANGS)
def test_playground_figure_draws_the_pages_run_and_two_empty_traces_for_the_readers(read_page, lang):
    from primer.figures.decoder import PLAYGROUND_UIDS
    from primer.language import labels

    html = read_page(lang, PAGE)
    data, _, _ = page_figures(html)["fig-playground"]
    _, runs, _, _, _ = experiment()
    text = labels("decoder", lang)
    page_run = [t for t in data if t["name"] == text["playground_page"].format(run=text["runs"]["causal"])]
    assert len(page_run) == 2 and np.allclose(page_run[1]["y"], np.round(runs["causal"].curve, 2))
    # the page's training curve is drawn as the program prints it: each stretch's mean, at the stretch's last step
    steps = runs["causal"].curve_steps
    means = [np.mean(runs["causal"].history[a:b]) for a, b in zip(steps[:-1], steps[1:])]
    assert page_run[0]["x"] == list(steps[1:]) and np.allclose(page_run[0]["y"], np.round(means, 2))
    yours = {t["uid"]: t for t in data if t.get("uid")}
    assert set(yours) == set(PLAYGROUND_UIDS.values()) and all(not t["x"] and not t["y"] for t in yours.values())
    assert yours["reader-train"]["name"] == text["playground_yours"] and yours["reader-heldout"]["yaxis"] == "y2"
    # The hook marks the block with the figure it draws into; runner.js reads the loss lines the program prints.
    assert 'data-playground="fig-playground"' in html

"""Chapter 7 (decoder-only) over the built site: the numbers primer printed, the figures and their controls."""

import pytest
from page_tables import table_with
from site_reader import LANGS, page_figures, table_rows

from primer import leak, mlm
from primer.config import Config
from primer.pages.decoder import CHANGED_POSITION, CHANGED_WORD
from primer.pages.encoder import SEED
from primer.vocab import CAT_VOCAB

PAGE = "07-decoder.md"


@pytest.mark.parametrize("lang", LANGS)
def test_leak_table_both_outcomes(read_page, lang):
    html = read_page(lang, PAGE)
    _, _, result = leak.experiment(
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


# ---- training under broken masks: the page prints what primer measures, and the claims hold


def experiment():
    from primer import broken_masks
    from primer.pages.decoder import CORPUS, GRAMMAR, MODEL, N_NEW, PROMPTS, SAMPLE_SEED, SCORE_N, TRAINING

    data, cfg, runs = broken_masks.experiment(GRAMMAR, model=MODEL, corpus_args=CORPUS, **TRAINING)
    written = {n: broken_masks.texts(r.params, cfg, data.vocab, PROMPTS, N_NEW, SAMPLE_SEED) for n, r in runs.items()}
    scores = {n: broken_masks.score(w, data.words, PROMPTS, SCORE_N) for n, w in written.items()}
    return data, runs, written, scores


@pytest.mark.parametrize("lang", LANGS)
def test_runs_table_prints_the_measured_losses_and_scores(read_page, lang):
    from primer.language import labels

    html = read_page(lang, PAGE)
    data, runs, _, scores = experiment()
    names = labels("decoder", lang)["runs"]
    head = labels("decoder_tables", lang)["cols_runs"][2]
    body = {r[0]: r for r in table_with(html, head)[1:]}
    assert list(body) == [names[n] for n in runs]
    for name, run in runs.items():
        row = body[names[name]]
        assert (
            abs(float(row[1]) - run.train_loss) <= 0.005 + 1e-9
            and abs(float(row[2]) - run.heldout_loss) <= 0.005 + 1e-9
        )
        assert row[3].startswith(f"{scores[name][0]} / {scores[name][1]} = ")
    honest = runs["causal"]
    for name in ("no_mask", "added_0", "triu_2", "masked_fill_0"):  # the claims the prose makes of the table
        assert float(body[names[name]][1]) < float(body[names["causal"]][1])
        assert float(body[names[name]][2]) > float(body[names["causal"]][2])
        assert scores[name][0] * scores["causal"][1] < scores["causal"][0] * scores[name][1]
    assert scores["causal"][0] == scores["causal"][1] and honest.heldout_loss < runs["triu_2"].heldout_loss


@pytest.mark.parametrize("lang", LANGS)
def test_generations_table_shows_each_distinct_model_once_per_prompt(read_page, lang):
    from primer.language import labels
    from primer.pages.decoder import PROMPTS

    html = read_page(lang, PAGE)
    _, runs, written, _ = experiment()
    rows = table_with(html, labels("decoder_tables", lang)["cols_texts"][3])[1:]
    assert len(rows) == len(PROMPTS) * (len(runs) - 1)  # no mask and 0 added wrote the same: one row
    greedy = {(r[0], r[1]): r[2] for r in rows}
    names = labels("decoder", lang)["runs"]
    prompt = PROMPTS[0]
    assert greedy[(prompt, names["causal"])] == " ".join(written["causal"][prompt][0][len(prompt.split()) :])
    assert greedy[(prompt, f"{names['no_mask']} = {names['added_0']}")] == " ".join(
        written["no_mask"][prompt][0][len(prompt.split()) :]
    )


@pytest.mark.parametrize("lang", LANGS)
def test_training_curves_draw_coinciding_runs_once(read_page, lang):
    html = read_page(lang, PAGE)
    data, layout, _ = page_figures(html)["fig-training-curves"]
    lines = [t for t in data if t.get("mode") == "lines"]
    assert len(lines) == 4  # five runs, two of them identical
    _, runs, _, _ = experiment()
    causal = next(t for t in lines if t["line"]["dash"] == "solid")
    assert len(causal["y"]) == len(runs["causal"].history)

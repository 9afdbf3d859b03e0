"""Chapter 8 (encoder-decoder) over the built site: the numbers primer printed, the figures and their controls."""

import pytest
from page_tables import unescaped
from site_reader import LANGS, table_rows

from primer import encoder_decoder
from primer.config import Config
from primer.figures.tables import integer
from primer.inputs import encoder_decoder as page
from primer.vocab import to_ids

PAGE = "08-encoder-decoder.md"
CFG = Config(**page.CONFIG)
MODEL = encoder_decoder.model(CFG, page.ENC_SEED, page.DEC_SEED)  # the page's two seeded stacks


@pytest.mark.parametrize("lang", LANGS)
def test_projection_counts_are_on_the_page(read_page, lang):
    html = read_page(lang, PAGE)
    rows = [r for r in table_rows(html) if len(r) == 3 and r[0].isdigit()]
    assert rows == [[str(t), "6", str(6 * t)] for t in range(1, 7)]
    counts = encoder_decoder.projection_counts(to_ids(page.SOURCE, page.VOCAB), *MODEL, CFG, page.STEPS)
    assert counts == [(t, 6, 6 * t) for t in range(1, 7)]
    assert "(n_layers = 6)" in html
    assert "<code>le chat était assis sur le tapis</code> → <code>mat mat mat mat mat mat</code>" in html


@pytest.mark.parametrize("lang", LANGS)
def test_layout_table_is_on_the_page(read_page, lang):
    html = read_page(lang, PAGE)
    rows = [r[1:] for r in table_rows(html) if len(r) == 4 and r[1] in ("13", "17")]
    yes, no = ("能", "不能") if lang == "zh" else ("yes", "no")
    assert rows == [["13", "112", yes], ["17", "153", no]]


def test_cross_mask_in_the_figure_is_all_open(read_page):
    run = encoder_decoder.teacher_forced(
        page.SOURCE, page.TARGET, page.VOCAB, *MODEL, CFG
    )  # the figure counts the open cells it draws
    for lang in LANGS:
        html = unescaped(read_page(lang, PAGE))
        for i, w in enumerate(run["tgt"]):
            title = (
                f"解码器第 {i} 行（“{w}”）：7 / 7 个原文列开着"
                if lang == "zh"
                else f"decoder row {i} (“{w}”): 7 / 7 source columns open"
            )
            assert title in html


@pytest.mark.parametrize("lang", LANGS)
def test_block_anatomy_table_is_on_the_page(read_page, lang):
    html = read_page(lang, "08-encoder-decoder.md")
    for count in (
        integer(1120, lang),
        integer(1104, lang),
        f"<strong>{integer(2224, lang)}</strong>",
        f"<strong>{integer(3344, lang)}</strong>",
    ):
        assert count in html


# ---- the trained toy translation (issue 32): the page's tables, and the claims its prose makes, on every seed


def translation_runs():
    from primer.experiments import translator
    from primer.inputs.decoder import GRAMMAR

    return [(s, translator.translators(GRAMMAR, **page.TRANSLATION, seed=s)) for s in page.TRANSLATION_SEEDS]


@pytest.mark.parametrize("lang", LANGS)
def test_the_example_pair_is_on_the_page(read_page, lang):
    from primer.experiments.translation import translate
    from primer.inputs.decoder import GRAMMAR

    source = page.TARGET + (".",)
    target, order = translate(source, GRAMMAR, page.LEXICON, page.HEAD_FINAL)
    rows = table_rows(read_page(lang, PAGE))
    assert [[str(j), t, str(i), source[i]] for j, (t, i) in enumerate(zip(target, order))] in [
        rows[k : k + len(target)] for k in range(len(rows))
    ]
    assert list(order) != list(range(len(source)))  # the alignment is not the diagonal


@pytest.mark.slow  # trains chapter 8's models
@pytest.mark.parametrize("lang", LANGS)
def test_held_out_pairs_are_held_out_and_scores_are_on_the_page(read_page, lang):
    rows = table_rows(read_page(lang, PAGE))
    runs = translation_runs()
    for seed, run in runs:
        p = run.pairs
        assert p.overlap == 0 and p.diagonal == 0 and not {s for s, _ in p.train} & {s for s, _ in p.heldout}
        assert [str(seed), str(len(p.train)), str(len(p.heldout)), "0", "0"] in rows
        n = len(p.heldout)
        for model in ("encoder-decoder", "decoder-only"):
            exact = run.exact[model] * n
            assert abs(exact - round(exact)) < 1e-9  # a count of sentences
            printed = [str(run.params_count[model]), f"{round(exact)} / {n}", f"{100 * run.per_token[model]:.1f}%"]
            assert any(r[0] == str(seed) and r[2:5] == printed for r in rows), (seed, model)
            # the prose: both translate nearly every held-out sentence (margin: at most 4 of 32 wrong, 97% of words)
            assert exact >= n - 4 and run.per_token[model] >= 0.97, (seed, model)
    # the prose: neither model wins on every seed
    ed = [run.exact["encoder-decoder"] for _, run in runs]
    do = [run.exact["decoder-only"] for _, run in runs]
    assert not all(a > b for a, b in zip(ed, do)) and not all(b > a for a, b in zip(ed, do))
    # the prose: the decoder-only model's weights come close to the two stacks' (within 10%)
    counts = runs[0][1].params_count
    assert abs(counts["decoder-only"] - counts["encoder-decoder"]) < 0.1 * counts["encoder-decoder"]


@pytest.mark.slow  # trains chapter 8's models
@pytest.mark.parametrize("lang", LANGS)
def test_every_head_learned_part_of_the_alignment_on_every_seed(read_page, lang):
    import numpy as np

    from primer.experiments import translator

    runs = [run for _, run in translation_runs()]
    trained = np.array([translator.alignment_agreement(r.enc, r.dec, r.pairs, r.cfg.n_heads) for r in runs])
    start = np.array([translator.alignment_agreement(*r.start, r.pairs, r.cfg.n_heads) for r in runs])
    chance = translator.alignment_chance(runs[0].pairs)
    assert (trained > start + 0.03).all() and (trained > chance + 0.05).all()  # learned, on every seed and head
    assert (trained < 0.6).all()  # but far from a clean permutation (the prose)
    for value in np.concatenate([trained.ravel(), start.ravel(), [chance]]):
        assert abs(100 * value - np.floor(100 * value) - 0.5) > 1e-6  # no printed percentage sits on a rounding edge
    rows = table_rows(read_page(lang, PAGE))
    for i in range(trained.shape[1]):
        for h in range(trained.shape[2]):
            span = [f"{100 * a[:, i, h].min():.0f}%–{100 * a[:, i, h].max():.0f}%" for a in (trained, start)]
            assert [str(i + 1), str(h + 1), *span] in rows

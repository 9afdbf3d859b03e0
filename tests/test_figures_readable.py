"""What makes chapters 5, 7 and 8's crowded figures readable, checked on the figures primer returns (no browser): every
word labelled, one colour scale where panels are compared, labels placed where nothing crosses them.

tests/test_figure_legibility.py measures the drawn figures; these pin the choices that keep them legible."""

import numpy as np
import pytest

from primer.figures import decoder, encoder_decoder, mask

SRC, TGT = ["le", "chat", "noir", "dort", "."], ["<bos>", "the", "black", "cat", "sleeps"]


def weights(rng, *shape):  # rows that sum to 1
    w = rng.random(shape)
    return w / w.sum(axis=-1, keepdims=True)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_learned_alignment_labels_every_word_on_one_colour_scale_and_outlines_the_gold(lang):
    rng = np.random.default_rng(0)
    gold = [0, 0, 2, 1, 3]
    fig = encoder_decoder.learned_alignment(
        SRC, TGT, gold, weights(rng, 2, 2, 5, 5), weights(rng, 2, 2, 5, 5), lang=lang
    )
    maps = [t for t in fig.data if t.type == "heatmap"]
    assert len(maps) == 8 and all(t.coloraxis == "coloraxis" and t.texttemplate is None for t in maps)
    assert fig.layout.coloraxis.colorbar.title.text and fig.layout.coloraxis.cmax == 1  # one scale, drawn as a bar
    for axis in [a for a in fig.layout if a.startswith("xaxis")]:  # every source word a tick: none skipped
        assert list(fig.layout[axis].tickvals) == [f"{i} {w}" for i, w in enumerate(SRC)]
    outlines = {(s.x0 + 0.5, s.y0 + 0.5) for s in fig.layout.shapes}
    assert len(fig.layout.shapes) == 4 * len(TGT) and outlines == {(j, i) for i, j in enumerate(gold)}
    legend = [t for t in fig.data if t.type == "scatter"]
    assert len(legend) == 1 and legend[0].marker.symbol == "square-open"  # the outline is named in the legend


def test_the_two_sublayers_share_one_range():
    rng = np.random.default_rng(1)
    self_w = np.tril(weights(rng, 5, 5))
    cross_w = 0.5 * weights(rng, 5, 5)
    fig = encoder_decoder.two_sublayers(SRC, TGT, self_w, cross_w, 4, lang="en")
    coloured = [t for t in fig.data if t.zmin == 0]  # the open cells' traces; a closed cell's trace has no range
    assert len(coloured) == 2 and {t.zmax for t in coloured} == {float(max(self_w.max(), cross_w.max()))}


def test_the_padding_figure_names_its_rows_by_number_so_no_word_runs_into_the_panel_before():
    masks = np.ones((2, 3, 3), bool)
    real = np.ones((2, 3), bool)
    fig = mask.padding_masks(
        [["a", "b", "c"], ["d", "e", "f"]], [(False, side, masks, real, ~real) for side in ("right", "left")], lang="en"
    )
    for t in fig.data:
        assert list(t.y) == [0, 1, 2] and list(t.x)[0] == "0 " + t.x[0].split()[1]  # words stay on the x axis
        assert t.customdata[0][1].startswith(f"{t.x[0]} → {t.x[1]}")  # the hover still names both words


def test_the_leak_arrow_stops_above_the_bars_value_label():
    from primer import leak, mlm
    from primer.config import Config
    from primer.inputs.decoder import CHANGED_POSITION, CHANGED_WORD
    from primer.inputs.encoder import SEED
    from primer.vocab import CAT_VOCAB

    words, changed, result = leak.word_leak_test(
        mlm.SENTENCE, CHANGED_POSITION, CHANGED_WORD, CAT_VOCAB, Config(vocab_size=len(CAT_VOCAB)), SEED
    )
    fig = decoder.future_leak(words, changed, result, lang="en")
    for button in fig.layout.updatemenus[0].buttons:
        arrow = [a for a in button.args[1]["annotations"] if a.get("showarrow")]
        assert len(arrow) == 1 and arrow[0]["standoff"] >= 16  # the label "6.6464" sits in the 16 px above the bar


def test_the_conventions_table_breaks_identifiers_only_after_an_underscore_or_a_dot():
    from primer.conventions import CONVENTIONS

    table = mask.conventions_table(CONVENTIONS, lang="en")
    assert "<code>torch.<wbr>nn.<wbr>functional.<wbr>scaled_<wbr>dot_<wbr>product_<wbr>attention</code>" in table
    assert "<wbr>" not in table.replace("_<wbr>", "").replace(".<wbr>", "")

"""Figures for every reader: named for screen readers, closed cells labelled, colours apart under colour blindness."""

import json
import re

import numpy as np
import plotly.colors
import plotly.graph_objects as go
import pytest
from site_reader import LANGS, html_path, page_names

from primer.figures.html import describe, lean, to_html
from primer.figures.look import ACCENT, CLOSED_COLOR, LEFT_COLOR, NEG_INF, OPEN_SCALE, RIGHT_COLOR, heatmap_traces

# Machado, Oliveira & Fernandes (2009), severity 1: the three dichromacies, applied to linear RGB.
CVD = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}


def srgb(color):
    color = plotly.colors.unlabel_rgb(color) if color.startswith("rgb") else plotly.colors.hex_to_rgb(color)
    return np.array(color, dtype=float) / 255


def lab(rgb):
    """Return CIE L*a*b* (D65) of an sRGB triple in [0, 1]."""
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]) @ lin
    xyz /= [0.95047, 1.0, 1.08883]
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def seen(color, vision):
    """Return the sRGB colour a reader with the given vision ('normal' or a CVD key) sees."""
    rgb = srgb(color)
    if vision == "normal":
        return rgb
    lin = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    lin = np.clip(np.array(CVD[vision]) @ lin, 0, 1)
    return np.where(lin <= 0.0031308, 12.92 * lin, 1.055 * lin ** (1 / 2.4) - 0.055)


def delta_e(a, b, vision):
    return float(np.linalg.norm(lab(seen(a, vision)) - lab(seen(b, vision))))


OPEN_COLORS = [c for c in getattr(plotly.colors.sequential, OPEN_SCALE)]


@pytest.mark.parametrize("vision", ["normal", *CVD])
def test_closed_grey_stands_apart_from_every_open_colour(vision):
    # The open scale runs pale to dark blue; the grey must differ from each step of it (dE > 10: clearly
    # another colour) for every kind of colour vision; the -inf label says it in words as well.
    gaps = {c: delta_e(CLOSED_COLOR, c, vision) for c in OPEN_COLORS}
    assert min(gaps.values()) > 10, (vision, gaps)


@pytest.mark.parametrize("vision", ["normal", *CVD])
def test_left_right_and_accent_colours_stay_apart(vision):
    pairs = [(LEFT_COLOR, RIGHT_COLOR), (LEFT_COLOR, ACCENT), (RIGHT_COLOR, ACCENT)]
    gaps = {f"{a}/{b}": delta_e(a, b, vision) for a, b in pairs}
    assert min(gaps.values()) > 15, (vision, gaps)


def test_a_colour_vision_simulation_that_cannot_fail_is_not_used():
    # plotly's default red and green: far apart for normal vision, close for a deuteranope
    assert delta_e("#d62728", "#2ca02c", "normal") > 100 and delta_e("#d62728", "#2ca02c", "deuteranopia") < 10


def test_every_closed_cell_carries_its_label():
    fig = go.Figure(heatmap_traces([[1, 2], [3, 4]], [[True, False], [False, True]], x=["a", "b"], y=["c", "d"]))
    closed = fig.data[1]
    for row_z, row_t in zip(closed.z, closed.text):
        for z, t in zip(row_z, row_t):
            assert (t == NEG_INF) == (z == z), (z, t)  # drawn (not NaN) exactly where labelled


def test_to_html_names_the_figure_and_offers_a_table_for_heatmaps():
    heat = go.Figure(heatmap_traces([[1, 2], [3, 4]], [[True, False], [True, True]], x=["a", "b"], y=["c", "d"]))
    html = to_html(heat, "fig-h")
    assert html.startswith('<figure class="primer-figure" aria-label="Heatmap (2 rows × 2 columns)"')
    assert '<details class="primer-figure-table" data-figure="fig-h">' in html and html.endswith("</figure>")
    bars = go.Figure(go.Bar(y=[1, 2], name="weights <b>per key</b>"))
    assert "primer-figure-table" not in to_html(bars, "fig-b")
    assert describe(lean(bars)) == "Chart: weights per key"
    assert 'aria-label="a &quot;quoted&quot; name"' in to_html(bars, "fig-b", label='a "quoted" name')
    assert describe(lean(heat), lang="zh").startswith("热图（2 行 × 2 列）")


FIGURE = re.compile(
    r'<figure class="primer-figure" aria-label="([^"]*)">.*?Plotly\.newPlot\(\s*"([^"]+)",\s*(\[.*?\]),\s*\{', re.S
)


@pytest.mark.parametrize("lang", LANGS)
def test_built_heatmaps_label_single_colour_cells_and_every_figure_is_named(site, lang):
    """A heatmap trace painted in one colour marks a category (a closed cell): each cell it draws has a label."""
    problems, figures, categorical = [], 0, 0
    for name in page_names():
        html = html_path(site, lang, name).read_text(encoding="utf-8")
        assert html.count("Plotly.newPlot(") == len(FIGURE.findall(html)), f"{name}: a figure outside <figure>"
        for label, fid, data in FIGURE.findall(html):
            figures += 1
            if len(label) < 8:
                problems.append(f"{name} {fid}: name {label!r}")
            for i, t in enumerate(json.loads(data)):
                scale = t.get("colorscale")
                if t.get("type") != "heatmap" or not isinstance(scale, list) or len({c for _, c in scale}) != 1:
                    continue
                categorical += 1
                text = t.get("text") or []
                unlabelled = [
                    (r, c)
                    for r, row in enumerate(t["z"])
                    for c, z in enumerate(row)
                    if z is not None and not (r < len(text) and c < len(text[r]) and str(text[r][c]).strip())
                ]
                if unlabelled:
                    problems.append(
                        f"{name} {fid} trace {i}: {len(unlabelled)} cells coloured but unlabelled, "
                        f"e.g. {unlabelled[:3]}"
                    )
    assert figures > 30 and categorical > 10, (figures, categorical)
    assert not problems, "\n".join(problems)

"""The shared figure look: −∞ cells are drawn, controls switch precomputed states, HTML is reproducible."""

import json
import re

import numpy as np
import plotly.graph_objects as go
import pytest

from primer import causal_mask
from primer.figures import md_table, pct, to_html
from primer.figures.controls import add_control
from primer.figures.look import CLOSED_COLOR, NEG_INF, TEMPLATE, heatmap_traces, styled


def test_closed_cells_are_drawn_by_a_second_trace_with_a_label():
    open_trace, closed_trace = heatmap_traces(np.zeros((3, 3)), causal_mask(3), x="abc", y="abc")
    z_open, z_closed = np.array(open_trace.z, dtype=float), np.array(closed_trace.z, dtype=float)
    assert np.isnan(z_open[~causal_mask(3)]).all() and not np.isnan(z_open[causal_mask(3)]).any()
    assert (z_closed[~causal_mask(3)] == 1).all() and np.isnan(z_closed[causal_mask(3)]).all()
    assert closed_trace.colorscale[0][1] == CLOSED_COLOR
    assert closed_trace.text[0][2] == NEG_INF and closed_trace.text[2][0] == ""


def test_controls_switch_visibility_between_precomputed_states():
    fig = go.Figure([go.Bar(y=[1]), go.Bar(y=[2]), go.Bar(y=[3])])
    add_control(fig, [("a", [0], None), ("b", [1, 2], {"title": "b"})], kind="slider", active=1)
    steps = fig.layout.sliders[0].steps
    assert steps[0].args[0]["visible"] == [True, False, False]
    assert steps[1].args[0]["visible"] == [False, True, True]
    assert [t.visible for t in fig.data] == [False, True, True]


def test_html_has_a_fixed_div_id_and_no_plotly_js():
    fig = go.Figure(go.Bar(y=[1, 2]))
    html = to_html(fig, div_id="fig-test")
    assert html == to_html(fig, div_id="fig-test")  # reproducible builds
    assert 'id="fig-test"' in html and "Plotly.newPlot" in html
    assert len(html) < 20_000 and "cdn" not in html.lower()
    assert json.loads(re.search(r"\"fig-test\",\s*(\[\{.*?\}\]),", html).group(1))[0]["y"] == [1, 2]


def test_tables():
    assert pct(0.6439) == "64.4%" and pct(1, 0) == "100%"
    assert md_table(["a", "b"], [[1, 2]]) == "| a | b |\n| --- | --- |\n| 1 | 2 |\n"


# ---- lean figure JSON: what each figure costs on the page


def _figure_json(html, div_id="fig-test"):
    data, layout = re.search(rf'"{div_id}",\s*(\[.*?\]),\s*(\{{.*\}}),\s*\{{"displaylogo"', html, re.S).groups()
    return json.loads(data), json.loads(layout)


def test_figures_carry_the_small_site_template_not_plotlys():
    html = to_html(styled(go.Figure(go.Bar(y=[1, 2]))), div_id="fig-test")
    _, layout = _figure_json(html)
    assert layout["template"] == json.loads(json.dumps(TEMPLATE.to_plotly_json()))
    assert len(json.dumps(layout["template"])) < 1500  # plotly's default template is about 7 KB
    assert not {"scene", "geo", "polar", "ternary"} & set(layout["template"]["layout"])


def test_numbers_are_rounded_to_the_precision_shown():
    x = 1 / 3
    fig = go.Figure(
        [
            go.Scatter(x=[x, 2.0], y=[x, 1234.56789], customdata=[x, x], hovertemplate="%{y:.3f} %{customdata}"),
            go.Heatmap(z=np.full((2, 2), x), colorscale="Blues", hovertemplate="%{z:.2g}"),
            go.Scatter(x=[x], y=[x]),  # hovered unformatted: plotly's own label
        ]
    )
    data, _ = _figure_json(to_html(fig, div_id="fig-test"))
    assert data[0]["y"] == [0.333, 1234.568]  # the .3f the hover prints
    assert data[0]["x"] == [0.3333, 2.0]  # only drawn: 4 significant digits
    assert data[0]["customdata"] == [x, x]  # printed as it is: never rounded
    assert data[1]["z"] == [[0.33, 0.33], [0.33, 0.33]]
    assert data[2]["x"] == [0.333333] and data[2]["y"] == [0.333333]


def test_a_heatmap_must_name_its_colorscale():
    with pytest.raises(ValueError, match="colorscale"):
        to_html(go.Figure(go.Heatmap(z=[[1, 2]])), div_id="fig-test")

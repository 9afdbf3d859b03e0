"""The shared figure look: −∞ cells are drawn, controls switch precomputed states, HTML is reproducible."""

import json
import re

import numpy as np
import plotly.graph_objects as go
import pytest

from primer import causal_mask
from primer.figures import md_table, page_lang, pct, to_html
from primer.figures._style import CLOSED_COLOR, NEG_INF, add_control, heatmap_traces


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
    with pytest.raises(ValueError, match="kind"):
        add_control(fig, [("a", [0], None), ("b", [1], None)], kind="knob")


def test_html_has_a_fixed_div_id_and_no_plotly_js():
    fig = go.Figure(go.Bar(y=[1, 2]))
    html = to_html(fig, div_id="fig-test")
    assert html == to_html(fig, div_id="fig-test")  # reproducible builds
    assert 'id="fig-test"' in html and "Plotly.newPlot" in html
    assert len(html) < 20_000 and "cdn" not in html.lower()
    assert json.loads(re.search(r"\"fig-test\",\s*(\[\{.*?\}\]),", html).group(1))[0]["y"] == [1, 2]


def test_page_language(monkeypatch):
    monkeypatch.delenv("PRIMER_LANG", raising=False)
    assert page_lang() == "en"
    monkeypatch.setenv("PRIMER_LANG", "zh")
    assert page_lang() == "zh" and page_lang("en") == "en"
    with pytest.raises(ValueError, match="lang must be one of"):
        page_lang("fr")


def test_tables():
    assert pct(0.6439) == "64.4%" and pct(1, 0) == "100%"
    assert md_table(["a", "b"], [[1, 2]]) == "| a | b |\n| --- | --- |\n| 1 | 2 |\n"

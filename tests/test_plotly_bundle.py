"""The vendored plotly.js (built with the traces the figures draw): pinned, the Python package's version, and enough
for every figure."""

import json

import pytest
import vendor_plotly  # tools/ is on pytest's pythonpath (pyproject.toml)
from site_reader import LANGS, html_path, page_figures, page_names


def test_bundle_matches_its_pin_and_the_python_packages_plotly_js():
    assert vendor_plotly.check(json.loads(vendor_plotly.PIN.read_text())) == []


def test_a_version_drift_is_reported(monkeypatch, tmp_path):
    old = tmp_path / "plotly.min.js"
    old.write_text("/**\n* plotly.js v3.0.1\n*/\n")
    monkeypatch.setattr(vendor_plotly, "python_plotly_js", lambda: old)
    problems = vendor_plotly.check(json.loads(vendor_plotly.PIN.read_text()))
    assert any("plotly package ships 3.0.1" in p for p in problems)


def test_a_pin_the_lock_file_does_not_match_is_reported():
    pin = json.loads(vendor_plotly.PIN.read_text())
    for key, other in (("version", "4.0.0"), ("integrity", "sha512-x"), ("esbuild", "0.1.0"), ("sha256", "0" * 64)):
        assert vendor_plotly.check(dict(pin, **{key: other})), key


def test_the_bundle_registers_the_three_traces_the_figures_draw_and_no_other():
    assert vendor_plotly.trace_types() == {"scatter", "bar", "heatmap"}


def figure_trace_types(html):
    """Return the trace types of every figure in a built page, from the JSON each Plotly.newPlot call gets."""
    return {trace.get("type", "scatter") for data, _, _ in page_figures(html).values() for trace in data}


@pytest.mark.parametrize("lang", LANGS)
def test_every_figure_uses_only_traces_the_bundle_has(site, lang):
    have = vendor_plotly.trace_types()
    used = {name: figure_trace_types(html_path(site, lang, name).read_text(encoding="utf-8")) for name in page_names()}
    assert set().union(*used.values()), "no figure found: the check would pass vacuously"
    missing = {name: sorted(types - have) for name, types in used.items() if types - have}
    assert missing == {}, (
        f"traces the bundle lacks: {missing}; add them to tools/plotly_bundle/entry.js or change the figure"
    )

"""tools/compare_sites.py: a prose or figure change fails the comparison; a code-only change passes and is listed."""

import importlib.util
import sys

from site_reader import ROOT

spec = importlib.util.spec_from_file_location("tools_compare_sites", ROOT / "tools" / "compare_sites.py")
compare = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(compare)

PAGE = """<html><body><p>The loss is <code>{name}</code>: {number}.</p>
<pre><code>{name} = loss(params)</code></pre>
<script>Plotly.newPlot("fig-a", [{{"y": [{y}]}}], {{"title": {{"text": "t"}}}}, {{}})</script></body></html>"""


def site(root, name="loss", number="0.25", y="1.5"):
    """Write a one-page site under root; return root."""
    (root / "en").mkdir(parents=True)
    (root / "en" / "index.html").write_text(PAGE.format(name=name, number=number, y=y), encoding="utf-8")
    return root


def test_a_rename_in_code_passes_and_is_listed(tmp_path, capsys):
    assert compare.main(site(tmp_path / "a"), site(tmp_path / "b", name="nll")) == 0
    out = capsys.readouterr().out
    assert "prose/figure/page differences: 0" in out and "+nll = loss(params)" in out


def test_a_changed_number_in_prose_or_figure_fails(tmp_path, capsys):
    before = site(tmp_path / "a")
    assert compare.main(before, site(tmp_path / "b", number="0.26")) == 1
    assert "PROSE DIFFERS" in capsys.readouterr().out
    assert compare.main(before, site(tmp_path / "c", y="1.25")) == 1
    assert "FIGURE DIFFERS: en/index.html fig-a: $[0][0].y[0]: 1.5 vs 1.25" in capsys.readouterr().out


def test_the_same_site_has_no_difference(tmp_path):
    assert compare.main(site(tmp_path / "a"), site(tmp_path / "b")) == 0

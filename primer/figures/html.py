"""The HTML a figure prints as: lean plotly JSON inside a named <figure>, with a "show as table" for heatmaps."""

import base64
import copy
import functools
import math
import re
from html import escape as html_escape

import numpy as np
import plotly.io as pio
from plotly.colors import get_colorscale

from primer.figures.controls import control_steps
from primer.figures.look import TEMPLATE
from primer.figures.tables import minus
from primer.language import labels

DRAWN_DIGITS = 4  # significant digits of a number that is only drawn: far below a pixel, a colour step
HOVER_DIGITS = 6  # significant digits of a number hovered without a format (plotly shows fewer)
# plotly.js's config for every figure: no logo; no "Share chart" button, which would send the chart to the vendor's
# cloud (plotly.js defaults showSendToCloud to true); no toolbar at all, whose 8-10 buttons a figure would add to the
# tab order (zoom and pan stay on the mouse and double-click resets; the sliders and buttons have keyboard twins,
# plotly-theme.js).
PLOTLY_CONFIG = {"displaylogo": False, "responsive": True, "showSendToCloud": False, "displayModeBar": False}


def to_html(fig, div_id, *, label=None):
    """Return the figure as an HTML fragment with a fixed div id; plotly.js is loaded once by the page.

    The figure is written lean (see `lean`): the site's small template, numbers to the precision shown.
    It sits in a <figure> named for screen readers (label, else `describe`); a figure with a heatmap gets a
    closed "show as table" below it, which docs/assets/javascripts/plotly-theme.js fills with the numbers of the
    heatmaps shown at the moment.
    """
    fig_dict = lean(fig)
    words = labels("figure_html")
    name = html_escape(label or describe(fig_dict))
    table = ""
    if any(t.get("type") == "heatmap" for t in fig_dict["data"]):
        table = (
            f'<details class="primer-figure-table" data-figure="{div_id}"><summary>{words["show_table"]}</summary>'
            f'<div class="primer-figure-table__body"></div></details>'
        )
    return (
        f'<figure class="primer-figure" aria-label="{name}">'
        + without_js(fig_dict, words)
        + pio.to_html(
            fig_dict,
            validate=False,
            full_html=False,
            include_plotlyjs=False,
            div_id=div_id,
            default_width="100%",
            default_height=f"{fig.layout.height or 420}px",
            config=PLOTLY_CONFIG,
        )
        + table
        + "</figure>"
    )


NOSCRIPT_CELLS = 400  # a heatmap with more cells than this is not tabled without JavaScript


def _cell(v):
    """Format one number of the no-JavaScript table as the "show as table" does (4 significant digits)."""
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return "" if not math.isfinite(v) else minus(str(int(v)) if float(v).is_integer() else f"{v:.4g}")
    return html_escape(_plain(v))


def _table(head, rows):
    """Return an HTML table: one header row, then rows whose first cell is a row header."""
    out = "<tr>" + "".join(f'<th scope="col">{h}</th>' for h in head) + "</tr>"
    out += "".join(f'<tr><th scope="row">{r[0]}</th>' + "".join(f"<td>{c}</td>" for c in r[1:]) + "</tr>" for r in rows)
    return f"<table>{out}</table>"


def without_js(fig_dict, words):
    """Return the <noscript> of a figure: it needs JavaScript; a heatmap's first view as a table when it is small.

    Charts get the sentence alone: their points are curves and drawn shapes, long and no reading without the plot."""
    shown = [t for t in fig_dict["data"] if t.get("visible", True) is True]
    tables = []
    heat = [t for t in shown if t.get("type") == "heatmap" and t.get("z") is not None][:1]
    if heat:
        z = np.asarray(heat[0]["z"], dtype=object)
        if z.size <= NOSCRIPT_CELLS:
            x = heat[0].get("x") or list(range(z.shape[1]))
            y = heat[0].get("y") or list(range(z.shape[0]))
            tables.append(_table(["", *map(_cell, x)], [[_cell(y[i]), *map(_cell, z[i])] for i in range(z.shape[0])]))
    note = words["no_js_table"] if tables else words["no_js"]
    return f'<noscript><p class="primer-figure-nojs">{note}</p>{"".join(tables)}</noscript>'


def _plain(text):
    """Return a label's text without plotly's HTML tags."""
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", str(text))).strip() if text else ""


def describe(fig_dict, lang=None):
    """Return a one-line name of a figure: its kind (heatmap rows x columns, or chart), then its title,
    else its panel titles, else its trace names and axis titles."""
    words = labels("figure_html", lang)
    layout, data = fig_dict.get("layout", {}), fig_dict.get("data", [])
    heat = [t for t in data if t.get("type") == "heatmap" and t.get("y") is not None and t.get("x") is not None]
    kind = words["heatmap"].format(rows=len(heat[0]["y"]), cols=len(heat[0]["x"])) if heat else words["chart"]
    title = layout.get("title")
    parts = [_plain(title.get("text") if isinstance(title, dict) else title)]
    if not parts[0]:
        parts = [_plain(a.get("text")) for a in layout.get("annotations", []) if a.get("text")][:6]
    if not any(parts):
        parts = list(dict.fromkeys(_plain(t.get("name")) for t in data if t.get("name")))[:6]
        parts += [
            _plain(v["title"].get("text") if isinstance(v.get("title"), dict) else v.get("title"))
            for k, v in sorted(layout.items())
            if re.fullmatch(r"[xy]axis\d*", k) and isinstance(v, dict)
        ]
    parts = [p for p in parts if p]
    return kind + (words["sep"] + " · ".join(parts) if parts else "")


_VERBATIM = {"customdata", "text", "hovertext", "ids", "meta", "name"}  # printed as they are: never rounded
_FORMAT = re.compile(r"%\{([a-z]+)(?::([^}]*))?\}")


def _rounder(fmt):
    """Return a function rounding a float to what the d3 format fmt shows ('.3f', '.4g', ',', ...), or None."""
    if fmt is None:
        return functools.partial(_significant, digits=HOVER_DIGITS)
    m = re.fullmatch(r"[,+ ]*(?:\.(\d+))?~?([a-z%]?)", fmt)
    if not m:
        return None  # a format we do not read: keep every digit
    places, kind = m.group(1), m.group(2)
    if kind == "f" and places is not None:
        return lambda v: round(v, int(places))
    if kind == "%" and places is not None:
        return lambda v: round(v, int(places) + 2)
    if kind in ("g", "e", "s", "r", "") and places is not None:
        return functools.partial(_significant, digits=max(int(places), 1))
    if kind == "d":
        return lambda v: float(round(v))
    return None  # ',' alone prints up to 12 digits: keep them


def _significant(v, digits):
    if not math.isfinite(v) or (v == int(v) and abs(v) < 1e15):  # whole numbers are short already
        return v
    return float(f"{v:.{digits}g}")


def _round_all(obj, rnd):
    """Return obj with every float (in nested lists, dicts, numpy arrays) passed through rnd."""
    if isinstance(obj, dict) and "bdata" in obj and "dtype" in obj:  # plotly's base64 typed array
        shape = [int(n) for n in str(obj.get("shape", "-1")).split(",")]
        obj = np.frombuffer(base64.b64decode(obj["bdata"]), dtype=obj["dtype"]).reshape(shape)
    if isinstance(obj, np.ndarray):
        obj = obj.tolist()
    if isinstance(obj, float):
        return rnd(obj)
    if isinstance(obj, np.floating):
        return rnd(float(obj))
    if isinstance(obj, dict):
        return {k: _round_all(v, rnd) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [_round_all(v, rnd) for v in obj]
    return obj


def _finest(rounders):
    """Combine the rounders of one value printed twice: keep what the finer print shows (None keeps all)."""
    if any(r is None for r in rounders):
        return None
    return lambda v: min((r(v) for r in rounders), key=lambda x: abs(x - v))


def trace_rounders(trace):
    """Return {'x': rounder, 'y': ..., 'z': ...} for one trace dict: each coordinate to the precision it is shown at."""
    template = trace.get("hovertemplate")
    skipped = trace.get("hoverinfo") in ("skip", "none")
    shown = {}
    if isinstance(template, str):
        for name, fmt in _FORMAT.findall(template):
            shown.setdefault(name, []).append(_rounder(fmt or None))
    out = {}
    for axis in ("x", "y", "z"):
        if skipped or (isinstance(template, str) and axis not in shown):
            out[axis] = functools.partial(_significant, digits=DRAWN_DIGITS)  # drawn, never printed
        elif axis in shown:
            out[axis] = _finest(shown[axis])
        else:
            out[axis] = functools.partial(_significant, digits=HOVER_DIGITS)  # plotly's own hover label
    return out


def lean(fig):
    """Return the figure as a dict to write: the site template, numbers rounded to the precision they are shown at.

    x, y and z are rounded to the format the hover template prints them with (to 6 significant digits
    when plotly prints them itself, to 4 when they are only drawn); customdata, text and ids are kept
    as they are; every other float gets 6 significant digits. Each heatmap must name its colorscale:
    the site template carries none.
    """
    fig_dict = (
        copy.deepcopy(fig) if isinstance(fig, dict) else fig.to_dict()
    )  # to_dict copies already; arrays stay arrays
    generic = functools.partial(_significant, digits=HOVER_DIGITS)
    keep = lambda v: v  # noqa: E731
    traces = []
    for trace in fig_dict.get("data", []):
        if trace.get("type") == "heatmap" and "colorscale" not in trace:
            raise ValueError("a heatmap trace must set colorscale: the site template carries no default one")
        for holder in (trace, trace.get("marker") or {}):  # a named scale spelt out: the dark scheme mirrors its stops
            if isinstance(holder.get("colorscale"), str):
                holder["colorscale"] = get_colorscale(holder["colorscale"])
        rounders = trace_rounders(trace)
        traces.append(
            {k: v if k in _VERBATIM else _round_all(v, (rounders.get(k, generic) or keep)) for k, v in trace.items()}
        )
    layout = dict(fig_dict.get("layout", {}), template=TEMPLATE.to_plotly_json())
    lean_layout = _round_all(layout, generic)
    for before, after in zip(control_steps(layout), control_steps(lean_layout)):  # restyled x / y / z: as their trace
        args = before["args"]
        if before["method"] in ("update", "restyle") and args and isinstance(args[0], dict):
            for axis in ("x", "y", "z"):
                if isinstance(args[0].get(axis), list) and len(args[0][axis]) == len(traces):
                    after["args"][0][axis] = [
                        _round_all(v, trace_rounders(t)[axis] or keep) for v, t in zip(args[0][axis], traces)
                    ]
    out = {"data": traces, "layout": lean_layout}
    if fig_dict.get("frames"):
        out["frames"] = fig_dict["frames"]
    return out

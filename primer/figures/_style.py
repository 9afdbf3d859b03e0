"""The site-wide look of every figure, the page language, its labels, and the HTML a figure prints as."""

import base64
import copy
import functools
import json
import math
import os
import re
from html import escape as html_escape
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import plotly.io as pio

LANGS = ("zh", "en")
FONT = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif"
OPEN_SCALE = "Blues"
CLOSED_COLOR = "#9e9e9e"   # cells a mask closes: drawn, never left as a gap
ACCENT = "#e8710a"         # the one thing a figure wants you to look at
MUTED = "#90a4ae"
LEFT_COLOR = "#1f77b4"     # what a token reads on its left (and the encoder)
RIGHT_COLOR = "#009e73"    # what it reads on its right (and the decoder); Okabe-Ito green: apart from ACCENT for protanopes
NEG_INF = "−∞"
LABELS = Path(__file__).with_name("labels")   # one string table per language: labels/zh.json, labels/en.json

# What the figures take from plotly's default template, and nothing else: its 3-D, map, polar and
# table defaults cost about 7 KB in every figure. Each heatmap names its own colorscale.
_INK = "#2a3f5f"
_AXIS = dict(gridcolor="white", linecolor="white", ticks="", title=dict(standoff=15), zerolinecolor="white",
             automargin=True, zerolinewidth=2)
TEMPLATE = go.layout.Template(
    layout=dict(autotypenumbers="strict", font=dict(color=_INK), hovermode="closest", hoverlabel=dict(align="left"),
                colorway=["#636efa", "#EF553B", "#00cc96", "#ab63fa", "#FFA15A", "#19d3f3", "#FF6692", "#B6E880",
                          "#FF97FF", "#FECB52"],
                xaxis=_AXIS, yaxis=_AXIS, coloraxis=dict(colorbar=dict(outlinewidth=0, ticks="")),
                shapedefaults=dict(line=dict(color=_INK)), title=dict(x=0.05),
                annotationdefaults=dict(arrowcolor=_INK, arrowhead=0, arrowwidth=1)),
    data=dict(heatmap=[go.Heatmap(colorbar=dict(outlinewidth=0, ticks=""))],
              bar=[go.Bar(error_x=dict(color=_INK), error_y=dict(color=_INK),
                          marker=dict(line=dict(color="#E5ECF6", width=0.5)))]))
DRAWN_DIGITS = 4   # significant digits of a number that is only drawn: far below a pixel, a colour step
HOVER_DIGITS = 6   # significant digits of a number hovered without a format (plotly shows fewer)


def page_lang(lang=None):
    """Return lang, else $PRIMER_LANG (set per page by the site build), else 'en'."""
    lang = lang or os.environ.get("PRIMER_LANG") or "en"
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {LANGS}, got {lang!r}")
    return lang


@functools.cache
def _label_table(lang):
    return json.loads((LABELS / f"{lang}.json").read_text(encoding="utf-8"))


def labels(section, lang=None):
    """Return one section of the page language's string table; figure builders never hold a translation."""
    table = _label_table(page_lang(lang))
    if section not in table:
        raise ValueError(f"section must be one of the sections of labels/{page_lang(lang)}.json, got {section!r}")
    return table[section]


def tick_labels(words):
    """Return unique axis labels 'i word' (a repeated word such as 'the' would merge on a category axis)."""
    return [f"{i} {w}" for i, w in enumerate(words)]


def styled(fig, *, height=420, title=None):
    """Apply the site look: transparent background (the page's light/dark scheme shows through)."""
    fig.update_layout(
        template=TEMPLATE,
        height=height,
        title=dict(text=title, x=0.01, xanchor="left") if title else None,
        font=dict(family=FONT, size=13),
        paper_bgcolor="rgba(0,0,0,0)",
        plot_bgcolor="rgba(0,0,0,0)",
        margin=dict(l=50, r=20, t=60 if title else 30, b=50),
        hoverlabel=dict(font_family=FONT),
    )
    return fig


def to_html(fig, div_id, *, label=None):
    """Return the figure as an HTML fragment with a fixed div id; plotly.js is loaded once by the page.

    The figure is written lean (see `lean`): the site's small template, numbers to the precision shown,
    no duplicate trace for a state a control switches to. It sits in a <figure> named for screen
    readers (label, else `describe`); a figure with a heatmap gets a closed "show as table" below it,
    which the page's figure-a11y.js fills with the numbers of the heatmaps shown at the moment.
    """
    fig_dict = lean(fig)
    words = labels("figure_html")
    name = html_escape(label or describe(fig_dict))
    table = ""
    if any(t.get("type") == "heatmap" for t in fig_dict["data"]):
        table = (f'<details class="primer-figure-table" data-figure="{div_id}"><summary>{words["show_table"]}</summary>'
                 f'<div class="primer-figure-table__body"></div></details>')
    return f'<figure class="primer-figure" aria-label="{name}">' + pio.to_html(
        fig_dict,
        validate=False,
        full_html=False,
        include_plotlyjs=False,
        div_id=div_id,
        default_width="100%",
        default_height=f"{fig.layout.height or 420}px",
        config={"displaylogo": False, "responsive": True},
    ) + table + "</figure>"


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
        parts += [_plain(v["title"].get("text") if isinstance(v.get("title"), dict) else v.get("title"))
                  for k, v in sorted(layout.items()) if re.fullmatch(r"[xy]axis\d*", k) and isinstance(v, dict)]
    parts = [p for p in parts if p]
    return kind + (words["sep"] + " · ".join(parts) if parts else "")


# ---- lean figure JSON

_VERBATIM = {"customdata", "text", "hovertext", "ids", "meta", "name"}   # printed as they are: never rounded
_FORMAT = re.compile(r"%\{([a-z]+)(?::([^}]*))?\}")


def _rounder(fmt):
    """Return a function rounding a float to what the d3 format fmt shows ('.3f', '.4g', ',', ...), or None."""
    if fmt is None:
        return functools.partial(_significant, digits=HOVER_DIGITS)
    m = re.fullmatch(r"[,+ ]*(?:\.(\d+))?~?([a-z%]?)", fmt)
    if not m:
        return None                               # a format we do not read: keep every digit
    places, kind = m.group(1), m.group(2)
    if kind == "f" and places is not None:
        return lambda v: round(v, int(places))
    if kind == "%" and places is not None:
        return lambda v: round(v, int(places) + 2)
    if kind in ("g", "e", "s", "r", "") and places is not None:
        return functools.partial(_significant, digits=max(int(places), 1))
    if kind == "d":
        return lambda v: float(round(v))
    return None                                   # ',' alone prints up to 12 digits: keep them


def _significant(v, digits):
    if not math.isfinite(v) or (v == int(v) and abs(v) < 1e15):   # whole numbers are short already
        return v
    return float(f"{v:.{digits}g}")


def _round_all(obj, rnd):
    """Return obj with every float (in nested lists, dicts, numpy arrays) passed through rnd."""
    if isinstance(obj, dict) and "bdata" in obj and "dtype" in obj:   # plotly's base64 typed array
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
            out[axis] = functools.partial(_significant, digits=DRAWN_DIGITS)   # drawn, never printed
        elif axis in shown:
            out[axis] = _finest(shown[axis])
        else:
            out[axis] = functools.partial(_significant, digits=HOVER_DIGITS)   # plotly's own hover label
    return out


def _controls(layout):
    """Yield every control step dict (slider step or button) in layout, including those a step's args install."""
    stack = [layout]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "method" in node and "args" in node:
                yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)


def _visibility(fig_dict):
    """Return the visible flags of every trace in every state (the initial one, then each control step), or None.

    None when a control does more than switch visibility (restyles data, names traces): then traces
    cannot be merged safely.
    """
    n = len(fig_dict["data"])
    flags = [t.get("visible", True) for t in fig_dict["data"]]
    if any(not isinstance(f, bool) for f in flags):
        return None                               # 'legendonly' is neither shown nor hidden
    states = [flags]
    for step in _controls(fig_dict.get("layout", {})):
        args = step["args"]
        if step["method"] == "relayout":
            continue
        if step["method"] not in ("update", "restyle") or len(args) > 2 or not isinstance(args[0], dict):
            return None
        if set(args[0]) - {"visible"}:
            return None
        vis = args[0].get("visible")
        if vis is not None:
            if not isinstance(vis, list) or len(vis) != n or any(not isinstance(v, bool) for v in vis):
                return None
            states.append(vis)
    return states


def merge_duplicate_traces(fig_dict):
    """Merge traces that are identical but for `visible` and never shown together; remap every control.

    A slider that shows the same curve in several states then carries it once. What is drawn in
    each state does not change.
    """
    data = fig_dict["data"]
    states = _visibility(fig_dict)
    if states is None or len(data) < 2:
        return fig_dict
    keys = [json.dumps({k: v for k, v in t.items() if k != "visible"}, sort_keys=True, default=str) for t in data]
    keep, target = [], {}
    for i, key in enumerate(keys):
        for j in keep:
            if keys[j] == key and not any(s[i] and s[j] for s in states):
                target[i] = j
                break
        else:
            keep.append(i)
            target[i] = i
    if len(keep) == len(data):
        return fig_dict
    new_index = {old: new for new, old in enumerate(keep)}

    def remap(flags):
        out = [False] * len(keep)
        for i, on in enumerate(flags):
            out[new_index[target[i]]] |= on is True
        return out

    initial = remap([t.get("visible", True) for t in data])
    fig_dict["data"] = [dict(data[i], visible=initial[new_index[i]]) if "visible" in data[i] or not initial[new_index[i]]
                        else data[i] for i in keep]
    for step in _controls(fig_dict.get("layout", {})):
        vis = step["args"][0].get("visible") if step["args"] and isinstance(step["args"][0], dict) else None
        if vis is not None:
            step["args"][0]["visible"] = remap(vis)
    return fig_dict


def lean(fig):
    """Return the figure as a dict to write: site template, numbers rounded to the precision shown, duplicates merged.

    x, y and z are rounded to the format the hover template prints them with (to 6 significant digits
    when plotly prints them itself, to 4 when they are only drawn); customdata, text and ids are kept
    as they are; every other float gets 6 significant digits. Each heatmap must name its colorscale:
    the site template carries none.
    """
    fig_dict = copy.deepcopy(fig) if isinstance(fig, dict) else fig.to_dict()   # to_dict copies already; arrays stay arrays
    generic = functools.partial(_significant, digits=HOVER_DIGITS)
    keep = lambda v: v   # noqa: E731
    traces = []
    for trace in fig_dict.get("data", []):
        if trace.get("type") == "heatmap" and "colorscale" not in trace:
            raise ValueError("a heatmap trace must set colorscale: the site template carries no default one")
        rounders = trace_rounders(trace)
        traces.append({k: v if k in _VERBATIM else _round_all(v, (rounders.get(k, generic) or keep))
                       for k, v in trace.items()})
    layout = dict(fig_dict.get("layout", {}), template=TEMPLATE.to_plotly_json())
    lean_layout = _round_all(layout, generic)
    for before, after in zip(_controls(layout), _controls(lean_layout)):   # restyled x / y / z: as their trace
        args = before["args"]
        if before["method"] in ("update", "restyle") and args and isinstance(args[0], dict):
            for axis in ("x", "y", "z"):
                if isinstance(args[0].get(axis), list) and len(args[0][axis]) == len(traces):
                    after["args"][0][axis] = [_round_all(v, trace_rounders(t)[axis] or keep)
                                              for v, t in zip(args[0][axis], traces)]
    out = {"data": traces, "layout": lean_layout}
    if fig_dict.get("frames"):
        out["frames"] = fig_dict["frames"]
    return merge_duplicate_traces(out)


def heatmap_traces(values, mask, *, x, y, fmt="{:.2f}", closed_text=NEG_INF, zmin=None, zmax=None,
                   colorscale=OPEN_SCALE, showscale=False, visible=True, xaxis="x", yaxis="y"):
    """Return two heatmap traces: open cells coloured by value, closed cells grey with a label.

    plotly writes -inf as null and leaves a gap, so closed cells are drawn by a second trace.
    """
    values = np.asarray(values, dtype=float)
    mask = np.broadcast_to(np.asarray(mask, dtype=bool), values.shape)
    open_z = np.where(mask, values, np.nan)
    open_text = [[fmt.format(v) if m else "" for v, m in zip(rv, rm)] for rv, rm in zip(values, mask)]
    closed_z = np.where(mask, np.nan, 1.0)
    closed_txt = [["" if m else closed_text for m in rm] for rm in mask]
    common = dict(x=list(x), y=list(y), xgap=2, ygap=2, visible=visible, xaxis=xaxis, yaxis=yaxis)
    return [
        go.Heatmap(z=open_z.tolist(), text=open_text, texttemplate="%{text}", colorscale=colorscale,
                   zmin=zmin, zmax=zmax, showscale=showscale, hovertemplate="%{y} → %{x}: %{text}<extra></extra>", **common),
        go.Heatmap(z=closed_z.tolist(), text=closed_txt, texttemplate="%{text}",
                   colorscale=[[0, CLOSED_COLOR], [1, CLOSED_COLOR]], showscale=False,
                   hovertemplate="%{y} → %{x}: " + closed_text + "<extra></extra>", **common),
    ]


def add_control(fig, steps, *, kind="slider", prefix="", active=0, y=None):
    """Add a slider or a row of buttons; each step is (label, visible trace indices, layout changes)."""
    if len(steps) < 2:
        raise ValueError(f"steps must hold at least 2 states for a control to switch between, got {len(steps)}")
    if not 0 <= active < len(steps):
        raise ValueError(f"active must index steps (0 .. {len(steps) - 1}), got {active}")
    n = len(fig.data)
    entries = []
    for label, shown, layout in steps:
        visible = [i in set(shown) for i in range(n)]
        entries.append(dict(label=str(label), method="update", args=[{"visible": visible}, layout or {}]))
    for i, trace in enumerate(fig.data):
        trace.visible = i in set(steps[active][1])
    if steps[active][2]:
        fig.update_layout(steps[active][2])
    if kind == "slider":
        fig.update_layout(sliders=[dict(active=active, steps=entries, currentvalue=dict(prefix=prefix),
                                        pad=dict(t=40), y=0 if y is None else y)])
    elif kind == "buttons":
        fig.update_layout(updatemenus=[dict(type="buttons", direction="right", active=active, buttons=entries,
                                            x=0, xanchor="left", y=1.12 if y is None else y, yanchor="bottom",
                                            showactive=True)])
    elif kind == "dropdown":
        fig.update_layout(updatemenus=[dict(type="dropdown", active=active, buttons=entries,
                                            x=0, xanchor="left", y=1.12 if y is None else y, yanchor="bottom")])
    else:
        raise ValueError(f"kind must be 'slider', 'buttons' or 'dropdown', got {kind!r}")
    return fig


def finish(fig, steps, *, height, margin=None, title_step=None, **control):
    """Add the control, apply the site look, then widen the margins it needs; title_step: show that step's title."""
    add_control(fig, steps, **control)
    styled(fig, height=height)
    if margin:
        fig.update_layout(margin=margin)
    if title_step is not None:
        fig.update_layout(title=dict(text=steps[title_step][2]["title.text"], x=0.01, xanchor="left"))
    return fig

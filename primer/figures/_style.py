"""The site-wide look of every figure, the page language, its labels, and the HTML a figure prints as."""

import functools
import json
import os
from pathlib import Path

import numpy as np
import plotly.graph_objects as go

LANGS = ("zh", "en")
FONT = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif"
OPEN_SCALE = "Blues"
CLOSED_COLOR = "#9e9e9e"   # cells a mask closes: drawn, never left as a gap
ACCENT = "#e8710a"         # the one thing a figure wants you to look at
MUTED = "#90a4ae"
LEFT_COLOR = "#1f77b4"     # what a token reads on its left (and the encoder)
RIGHT_COLOR = "#2ca02c"    # what it reads on its right (and the decoder)
NEG_INF = "−∞"
LABELS = Path(__file__).with_name("labels")   # one string table per language: labels/zh.json, labels/en.json


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
        height=height,
        title=dict(text=title, x=0.01, xanchor="left") if title else None,
        font=dict(family=FONT, size=13),
        paper_bgcolor="rgba(0,0,0,0)",
        plot_bgcolor="rgba(0,0,0,0)",
        margin=dict(l=50, r=20, t=60 if title else 30, b=50),
        hoverlabel=dict(font_family=FONT),
    )
    return fig


def to_html(fig, div_id):
    """Return the figure as an HTML fragment with a fixed div id; plotly.js is loaded once by the page."""
    return fig.to_html(
        full_html=False,
        include_plotlyjs=False,
        div_id=div_id,
        default_width="100%",
        default_height=f"{fig.layout.height or 420}px",
        config={"displaylogo": False, "responsive": True},
    )


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

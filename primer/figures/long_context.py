"""Figures and tables of the chapter "Long context": what a stack of layers reaches, what its cache holds."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.counts import format_bytes
from primer.figures.controls import finish
from primer.figures.look import ACCENT, CLOSED_COLOR, LEFT_COLOR, MUTED, RIGHT_COLOR
from primer.figures.tables import fmt_change, integer, md_table, pct
from primer.language import labels

REACH_SCALE = [[0, CLOSED_COLOR], [1, LEFT_COLOR]]  # 0: output i does not depend on j; 1: it does


def reach_layers(reaches, *, lang=None):  # {pattern: [[n, n] per layer count]} -> Figure
    """Show, side by side for each pattern, which positions each output depends on after L layers; a slider picks L."""
    text = labels("long_context", lang)
    names = list(reaches)
    fig = make_subplots(
        rows=1, cols=len(names), subplot_titles=[text["patterns"][p] for p in names], horizontal_spacing=0.06
    )
    n_layers = len(reaches[names[0]])
    steps = []
    for layer in range(n_layers):
        start = len(fig.data)
        for col, name in enumerate(names, start=1):
            reach = np.asarray(reaches[name][layer])
            fig.add_trace(
                go.Heatmap(
                    z=reach.astype(int).tolist(),
                    colorscale=REACH_SCALE,
                    zmin=0,
                    zmax=1,
                    showscale=False,
                    xgap=1,
                    ygap=1,
                    hovertemplate=text["reach_hover"] + "<extra></extra>",
                ),
                row=1,
                col=col,
            )
        steps.append((layer + 1, range(start, len(fig.data)), {}))
    for col in range(1, len(names) + 1):
        fig.update_yaxes(autorange="reversed", title_text=text["axis_output"] if col == 1 else None, row=1, col=col)
        fig.update_xaxes(title_text=text["axis_key"], row=1, col=col)
    return finish(fig, steps, kind="slider", prefix=text["layers_prefix"], height=440, margin=dict(t=60, b=40))


def lookback_table(lookbacks, lang=None):  # {pattern: [int per layer count]} -> str
    """Return a Markdown table: per pattern, how far back the last output reaches after 1, 2, ... layers."""
    text = labels("long_context", lang)
    n_layers = len(next(iter(lookbacks.values())))
    head = [text["col_pattern"]] + [text["col_layers"].format(l=depth) for depth in range(1, n_layers + 1)]
    rows = [[text["patterns"][p]] + [integer(v, lang) for v in values] for p, values in lookbacks.items()]
    return md_table(head, rows)


def cache_table(rows, lang=None):  # rows: (name, "local" or "chunked", n_local, n_global, span, bytes, all-global)
    """Return a Markdown table: per released model, its layers, window or chunk and KV cache against all-global."""
    text = labels("long_context", lang)
    head = [text["col_model"], text["col_local_global"], text["col_span"], text["col_cache"], text["col_global"]]
    head.append(text["col_share"])
    body = [
        [
            name,
            f"{local} / {glob}",
            text["span_chunked" if kind == "chunked" else "span_local"].format(n=integer(span, lang)),
            format_bytes(ours),
            format_bytes(full),
            pct(ours / full),
        ]
        for name, kind, local, glob, span, ours, full in rows
    ]
    return md_table(head, body)


def sink_table(rows, lang=None):  # rows: (scheme, [n_k] weights) -> str
    """Return a Markdown table: a row's weight on each key under each scheme, and what the row adds up to."""
    text = labels("long_context", lang)
    n_k = len(rows[0][1])
    head = [text["col_scheme"]] + [str(j) for j in range(n_k)] + [text["col_sum"]]
    body = [
        [text["schemes"][scheme]] + [f"{w:.3f}" if w > 0 else "0" for w in weights] + [f"{sum(weights):.3f}"]
        for scheme, weights in rows
    ]
    return md_table(head, body)


def cache_held(held, *, lang=None):  # {size: {kind: [n] int}} -> Figure
    """Plot how many keys the newest query reads at each position: every layer kind, one size per slider step."""
    text = labels("long_context", lang)
    colors = {"global": MUTED, "window": LEFT_COLOR, "chunked": ACCENT}
    fig = go.Figure()
    steps = []
    for size, kinds in held.items():
        start = len(fig.data)
        for kind, counts in kinds.items():
            fig.add_trace(
                go.Scatter(
                    x=list(range(len(counts))),
                    y=[int(c) for c in counts],
                    mode="lines",
                    line=dict(color=colors[kind], width=3 if kind == "chunked" else 2, shape="hv"),
                    name=text["held_kinds"][kind],
                    hovertemplate=text["held_hover"] + "<extra></extra>",
                )
            )
        steps.append((size, range(start, len(fig.data)), {}))
    fig.update_xaxes(title_text=text["axis_position"])
    fig.update_yaxes(title_text=text["axis_held"], rangemode="tozero")
    fig.update_layout(legend=dict(orientation="h", y=1.12, x=0))
    return finish(fig, steps, kind="slider", prefix=text["size_prefix"], y=-0.25, height=460, margin=dict(b=130))


def ring_memory(ring_bytes, grow_bytes, *, lang=None):  # {window: [n] int}, [n] int -> Figure
    """Plot the bytes of a ring-buffer cache and of a cache of every position, step by step; a slider picks w."""
    text = labels("long_context", lang)
    fig = go.Figure()
    steps = []
    hover = text["bytes_hover"] + "<extra></extra>"
    for window, sizes in ring_bytes.items():
        start = len(fig.data)
        steps_x = list(range(1, len(sizes) + 1))
        fig.add_trace(
            go.Scatter(
                x=steps_x,
                y=[int(b) for b in grow_bytes],
                mode="lines",
                line=dict(color=MUTED, width=2),
                name=text["grow_name"],
                hovertemplate=hover,
            )
        )
        fig.add_trace(
            go.Scatter(
                x=steps_x,
                y=[int(b) for b in sizes],
                mode="lines",
                line=dict(color=RIGHT_COLOR, width=3),
                name=text["ring_name"].format(w=window),
                hovertemplate=hover,
            )
        )
        steps.append((window, range(start, len(fig.data)), {}))
    fig.update_xaxes(title_text=text["axis_step"])
    fig.update_yaxes(title_text=text["axis_bytes"], rangemode="tozero")
    fig.update_layout(legend=dict(orientation="h", y=1.12, x=0))
    return finish(fig, steps, kind="slider", prefix=text["window_prefix"], y=-0.25, height=440, margin=dict(b=130))


def ring_table(rows, lang=None):  # rows: (window, sinks, gap, first bytes, last bytes, every-position bytes)
    """Return a Markdown table: per ring, its gap to recomputing under the window mask and its bytes."""
    text = labels("long_context", lang)
    head = [text["col_window"], text["col_sinks"], text["col_gap"], text["col_first"], text["col_last"]]
    head.append(text["col_every"])
    body = [
        [integer(w, lang), integer(s, lang), fmt_change(gap), integer(a, lang), integer(b, lang), integer(c, lang)]
        for w, s, gap, a, b, c in rows
    ]
    return md_table(head, body)

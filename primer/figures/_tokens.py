"""A sentence drawn as a row of tokens joined by arcs, as thick as their weights (chapters 6 and 7)."""

import numpy as np
import plotly.graph_objects as go

from primer.figures.look import ACCENT, CLOSED_COLOR, LEFT_COLOR


def arc_top(n, pad=0.35):
    """Return how high the longest arc over n tokens reaches, plus room for its label."""
    return 0.25 + 0.22 * (n - 1) + pad


def arc_trace(i, j, weight, *, above=True, color=ACCENT, scale=16.0, text=True):
    """Return a half-ellipse from token i to token j, as thick as its weight, labelled at the top."""
    t = np.linspace(0, np.pi, 30)
    mid, half = (i + j) / 2, (j - i) / 2
    height = (0.25 + 0.22 * abs(j - i)) * (1 if above else -1)
    x = mid - half * np.cos(t)
    y = height * np.sin(t)
    label = [""] * len(t)
    if text:
        label[len(t) // 2] = f"{weight:.2f}"
    return go.Scatter(
        x=x,
        y=y,
        mode="lines+text" if text else "lines",
        text=label,
        textposition="top center" if above else "bottom center",
        line=dict(color=color, width=max(0.8, scale * float(weight)), shape="spline"),
        hoverinfo="skip",
        showlegend=False,
        textfont=dict(size=11, color=color),
    )


def token_trace(words, highlight, *, visible_upto=None, filled=None, y=0.0):
    """Return the row of tokens as text markers; highlight one, grey out those beyond visible_upto."""
    n = len(words)
    colors, text = [], []
    for j, w in enumerate(words):
        if j == highlight:
            colors.append(ACCENT)
        elif visible_upto is not None and j > visible_upto:
            colors.append(CLOSED_COLOR)
        else:
            colors.append(LEFT_COLOR)
        text.append(filled if (j == highlight and filled) else w)
    return go.Scatter(
        x=list(range(n)),
        y=[y] * n,
        mode="markers+text",
        text=text,
        textposition="middle center",
        marker=dict(size=44, color=colors, opacity=0.22, line=dict(color=colors, width=2)),
        textfont=dict(size=14),
        hoverinfo="skip",
        showlegend=False,
    )


def token_figure(words, traces_for, layout_for=None, *, bottom=None):
    """Return a figure holding the traces traces_for(i) yields for each token i, and one slider step per token.

    The axes are hidden and fit the arcs; bottom: the lowest y shown (default: as deep as the arcs are high).
    """
    fig, steps = go.Figure(), []
    for i, w in enumerate(words):
        start = len(fig.data)
        for trace in traces_for(i):
            fig.add_trace(trace)
        steps.append((f"{i} {w}", list(range(start, len(fig.data))), layout_for(i) if layout_for else None))
    n, top = len(words), arc_top(len(words))
    fig.update_xaxes(visible=False, range=[-0.6, n - 0.4])
    fig.update_yaxes(visible=False, range=[-top if bottom is None else bottom, top])
    return fig, steps

"""Figures of the chapter "Language modelling and the RNN's gradients": the far-apart sentence, measured gradients."""

import numpy as np
import plotly.graph_objects as go

from primer.figures.controls import add_control
from primer.figures.look import ACCENT, MUTED, styled
from primer.figures.tables import FD_AGREE, fmt_below, md_table, minus
from primer.language import labels


def positions_table(sentence, marks, *, lang=None):
    """Return a Markdown table with one column per character and its 1-based position; marked characters in bold."""
    text = labels("rnn", lang)
    bold = lambda c, cell: f"**{cell}**" if c in marks else str(cell)  # noqa: E731
    head = [text["pos"]] + [bold(c, i) for i, c in enumerate(sentence, start=1)]
    row = [text["char"]] + [bold(c, c) for c in sentence]
    return md_table(head, [row])


def distance_table(rows, *, lang=None):
    """Return a Markdown table, a row per (head, its position, tail, its position, distance): how far apart they are."""
    text = labels("rnn", lang)
    return md_table(
        [text["from"], text["pos"], text["to"], text["pos"], text["dist"]],
        [[head, p, tail, q, f"**{distance}**"] for head, p, tail, q, distance in rows],
    )


def _radius_label(text, r):
    if r == 1:
        return f"{text['radius']}1"
    side = text["below"] if r < 1 else text["above"]
    return f"{text['radius']}{r:g}{side}"  # side: " (<1)", or "（< 1）" in Chinese


def gradient_curves(norms, steps, radii, *, active_steps, active_radius, lang=None):
    """Draw ||dL/dh_k|| against steps back from the loss; buttons pick ρ, a slider picks T.

    norms[activation][r][s] is the measured array for radii[r] and steps[s], k = 1..T. The
    buttons switch visibility and the slider restyles x and y of every trace, so the two
    controls are independent in a static page.
    """
    text = labels("rnn", lang)
    acts = list(norms)
    s0 = list(steps).index(active_steps)
    fig = go.Figure()
    index = {}
    for r in range(len(radii)):
        for act in acts:
            y = np.asarray(norms[act][r][s0])[::-1]
            index[(r, act)] = len(fig.data)
            fig.add_trace(
                go.Scatter(
                    x=list(range(len(y))),
                    y=y.tolist(),
                    mode="lines+markers",
                    name=text[act],
                    line=dict(
                        color=ACCENT if act == "tanh" else MUTED, dash="solid" if act == "tanh" else "dash", width=2.5
                    ),
                    marker=dict(size=4),
                    hovertemplate="T − k = %{x}: %{y:.3g}<extra>" + text[act] + "</extra>",
                )
            )
    buttons = [(_radius_label(text, radius), [index[(r, a)] for a in acts], None) for r, radius in enumerate(radii)]
    add_control(fig, buttons, kind="buttons", active=list(radii).index(active_radius))
    order = [index[(r, a)] for r in range(len(radii)) for a in acts]
    slider_steps = []
    for s, n in enumerate(steps):
        xs = [list(range(n)) for _ in order]
        ys = [np.asarray(norms[a][r][s])[::-1].tolist() for r in range(len(radii)) for a in acts]
        slider_steps.append(dict(label=str(n), method="restyle", args=[{"x": xs, "y": ys}, order]))
    fig.update_layout(
        sliders=[dict(active=s0, steps=slider_steps, currentvalue=dict(prefix=text["steps"]), pad=dict(t=50))]
    )
    every = np.concatenate([np.asarray(v, dtype=float) for a in acts for row in norms[a] for v in row])
    every = every[every > 0]
    lo, hi = np.floor(np.log10(every.min())), np.ceil(np.log10(every.max()))
    fig.update_yaxes(type="log", range=[lo, hi], title=text["y"], exponentformat="power")
    fig.update_xaxes(range=[-1, max(steps)], title=text["x"])
    fig.add_hline(y=1.0, line=dict(color=MUTED, width=1, dash="dot"))
    fig.update_layout(legend=dict(orientation="h", x=1, xanchor="right", y=1.02, yanchor="bottom"))
    return styled(fig, height=560)


def gradient_table(radii, first, steps, *, lang=None):
    """Return a Markdown table of ||dL/dh_1|| per spectral radius (columns) and activation (rows)."""
    text = labels("rnn", lang)
    head = [text["act"] + " \\ " + text["first"].format(T=steps)] + [_radius_label(text, r) for r in radii]
    rows = [[text[act]] + [f"{v:.1e}" for v in values] for act, values in first.items()]
    return md_table(head, rows)


def gradcheck_table(rows, *, lang=None):
    """Return a Markdown table from (name, backprop gradient, finite-difference gradient) rows."""
    text = labels("rnn", lang)
    out = []
    for name, bp, fd in rows:
        big = float(np.abs(bp).max())
        out.append([name, f"{big:.2e}", fmt_below(float(np.abs(bp - fd).max()) / big, FD_AGREE)])
    return md_table([text["what"], text["largest"], text["diff"]], out)


def radius_norm_table(radii, radius, norm, *, lang=None):
    """Return a Markdown table: for each W of the experiment, its spectral radius and its spectral norm."""
    text = labels("rnn", lang)
    head = [text["matrix"]] + [_radius_label(text, r) for r in radii]
    rows = [
        [text["radius_row"]] + [minus(f"{v:.2f}") for v in radius],
        [text["norm_row"]] + [minus(f"{v:.2f}") for v in norm],
    ]
    return md_table(head, rows)


def error_check_table(rows, *, lang=None):
    """Return a Markdown table from (loss name, quantity key, formula value, finite-difference value) rows."""
    text = labels("rnn", lang)
    out = []
    for loss, what, formula, fd in rows:
        big = float(np.abs(formula).max())
        out.append([text[loss], text[what], f"{big:.2e}", fmt_below(float(np.abs(formula - fd).max()) / big, FD_AGREE)])
    return md_table([text["loss"], text["what"], text["largest_any"], text["diff"]], out)


def error_example_table(y_hat, target, error, *, lang=None):
    """Return a Markdown table of one step's prediction, one-hot label and error term, one column per class."""
    text = labels("rnn", lang)
    head = [text["step"]] + [text["class"].format(j=j) for j in range(len(y_hat))]
    rows = [
        [text[key]] + [minus(f"{v:+.2f}" if key == "err" else f"{v:.2f}") for v in values]
        for key, values in (("y_hat", y_hat), ("y_true", target), ("err", error))
    ]
    return md_table(head, rows)

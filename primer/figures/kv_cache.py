"""Figures of the chapter "The generation loop and the KV cache": the loop, and what it costs."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures.controls import add_control, finish
from primer.figures.look import ACCENT, MUTED, on_phone, phone_layout, pin_titles, styled
from primer.figures.tables import fmt_change, hover_integer, integer, md_table
from primer.language import labels
from primer.rounding import is_rounding


def loop_steps(steps, probs, vocab, *, top_k=6, lang=None):
    """Draw the loop without a cache: each step reruns the whole prefix, then appends its prediction; a slider steps.

    probs[s]: step s's next-token probabilities, [vocab].
    """
    text = labels("kv_cache", lang)
    n_steps = len(steps)
    width = len(steps[-1]["input"]) + 1
    fig = make_subplots(
        rows=2,
        cols=1,
        row_heights=[0.58, 0.42],
        vertical_spacing=0.2,
        subplot_titles=(text["grid"], text["bars"].format(k=top_k)),
    )
    # the subplot titles, each on its panel (they follow it on a phone): every step keeps them
    titles = [a.to_plotly_json() for a in pin_titles(fig, [(1, 1), (2, 1)])]
    y = [text["step"].format(s=s + 1) for s in range(n_steps)]
    x = list(range(width))
    control = []
    for s, step in enumerate(steps):
        z = np.full((n_steps, width), np.nan)
        cells = [["" for _ in range(width)] for _ in range(n_steps)]
        for r in range(s + 1):
            inp = steps[r]["input"]
            z[r, : len(inp)] = 1.0
            z[r, len(inp)] = 2.0
            for j, tok in enumerate(list(inp) + [steps[r]["next"]]):
                cells[r][j] = vocab[int(tok)]
        fig.add_trace(
            go.Heatmap(
                z=z.tolist(),
                x=x,
                y=y,
                text=cells,
                texttemplate="%{text}",
                zmin=1,
                zmax=2,
                colorscale=[[0, "#9ecae1"], [0.5, "#9ecae1"], [0.5, ACCENT], [1, ACCENT]],
                showscale=False,
                xgap=2,
                ygap=2,
                hoverinfo="skip",
            ),
            row=1,
            col=1,
        )
        p = np.asarray(probs[s])
        top = np.argsort(-p)[:top_k]
        fig.add_trace(
            go.Bar(
                x=[vocab[int(i)] for i in top],
                y=p[top].tolist(),
                text=[f"{v:.2f}" for v in p[top]],
                textposition="outside",
                marker_color=[ACCENT if i == step["next"] else MUTED for i in top],
                hovertemplate="%{x}: %{y:.3f}<extra></extra>",
            ),
            row=2,
            col=1,
        )
        note = text["run"].format(s=s + 1, n=len(step["input"]), w=vocab[step["next"]])
        control.append(
            (
                s + 1,
                [2 * s, 2 * s + 1],
                {
                    "annotations": titles
                    + [
                        dict(
                            text=note,
                            x=0,
                            xref="paper",
                            y=1.1,
                            yref="paper",
                            xanchor="left",
                            yanchor="bottom",
                            showarrow=False,
                            align="left",
                            font=dict(size=14, color=ACCENT),
                        )
                    ]
                },
            )
        )
    fig.update_yaxes(autorange="reversed", row=1, col=1)
    fig.update_xaxes(title=text["pos"], dtick=1, row=1, col=1)
    fig.update_yaxes(range=[0, 1.15], title=text["prob"], row=2, col=1)
    fig.update_layout(showlegend=False)
    finish(fig, control, kind="slider", prefix=text["steps"], active=0, height=680, margin=dict(t=130))
    # on a phone the lower panel's title wraps: more room between the grid's axis title and it
    return phone_layout(fig, [("xaxis", "yaxis", 270, 0), ("xaxis2", "yaxis2", 190, 130)])


def work_curves(ns, without, with_cache, marks, *, lang=None):
    """Draw total attention work over N on log axes, without and with a cache; a slider picks N and shows the ratio.

    marks: [(N, work without, work with, ratio)]; a ratio that is a number is printed rounded to a whole number."""
    text = labels("kv_cache", lang)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(x=list(ns), y=list(without), mode="lines", name=text["without"], line=dict(color="#d62728", width=3))
    )
    fig.add_trace(
        go.Scatter(x=list(ns), y=list(with_cache), mode="lines", name=text["with"], line=dict(color="#1f77b4", width=3))
    )
    control = []
    for n, a, b, ratio in marks:
        start = len(fig.data)
        fig.add_trace(
            go.Scatter(
                x=[n, n],
                y=[b, a],
                mode="lines+markers",
                showlegend=False,
                line=dict(color=ACCENT, dash="dot"),
                marker=dict(size=11, color=ACCENT),
                hovertemplate="%{y" + hover_integer(lang) + "}<extra></extra>",
            )
        )
        note = text["mark"].format(
            n=integer(n, lang),
            a=integer(a, lang),
            b=integer(b, lang),
            r=ratio if isinstance(ratio, str) else integer(round(ratio), lang),
        )
        control.append(
            (
                integer(n, lang),
                [0, 1, start],
                {
                    "annotations": [
                        dict(
                            text=note,
                            x=0.02,
                            xref="paper",
                            y=0.98,
                            yref="paper",
                            xanchor="left",
                            yanchor="top",
                            align="left",
                            showarrow=False,
                            font=dict(size=14, color=ACCENT),
                            bgcolor="rgba(255,255,255,0.6)",
                        )
                    ]
                },
            )
        )
    fig.update_xaxes(type="log", title=text["n"])
    fig.update_yaxes(type="log", title=text["work"], exponentformat="power")
    fig.update_layout(legend=dict(x=0.98, xanchor="right", y=0.02, yanchor="bottom"))
    active = next((i for i, m in enumerate(marks) if m[0] == 1000), 0)
    add_control(fig, control, kind="slider", prefix=text["slider"], active=active)
    styled(fig, height=500)
    # on a phone the legend's long entries would cover the curves and the tick labels: above the plot instead
    above = {"legend.orientation": "h", "legend.x": 0, "legend.xanchor": "left", "legend.y": 1.02}
    return on_phone(fig, layout={**above, "legend.yanchor": "bottom", "margin.t": 40})


def _e(x):
    return fmt_change(x)


def cache_equal(rows, *, lang=None):
    """Return a Markdown table of (layers, heads, length, max |difference|) rows."""
    text = labels("kv_cache_tables", lang)
    return md_table([text["layers"], text["heads"], text["n"], text["diff"]], [[a, b, c, _e(d)] for a, b, c, d in rows])


def drift_table(causal, full, *, lang=None):
    """Return a Markdown table of how far the old positions move when a token is appended, per mask."""
    text = labels("kv_cache_tables", lang)
    rows = []
    for i in range(len(causal["k"])):
        rows.append([text["k"].format(i=i + 1), _e(causal["k"][i]), _e(full["k"][i])])
        rows.append([text["v"].format(i=i + 1), _e(causal["v"][i]), _e(full["v"][i])])
    rows.append([text["logits"], _e(causal["logits"]), f"**{_e(full['logits'])}**"])
    return md_table([text["what"], text["causal"], text["full"]], rows)


def kv_dependence_table(change, *, lang=None):
    """Return a Markdown table: which old rows, once replaced by noise, move the new row's output."""
    text = labels("kv_cache_tables", lang)
    rows = [
        [text["old"][name], f"**{_e(change[name])}**" if is_rounding(change[name]) else _e(change[name])]
        for name in ("q", "k", "v")
    ]
    return md_table([text["changed"], text["moved"]], rows)


def work_table(rows, *, lang=None):
    """Return a Markdown table of (N, sum n^2, sum n, score ratio, lower-triangle ratio, row ratio) rows; ratios: N×."""
    text = labels("kv_cache_tables", lang)
    out = []
    for n, sq, lin, *ratios in rows:
        cells = [_times(r, lang) for r in ratios]
        if n == 1000:
            cells[0] = f"**{cells[0]}**"
        out.append([integer(n, lang), integer(sq, lang), integer(lin, lang), *cells])
    return md_table([text["N"], text["sq"], text["lin"], text["ratio"], text["ratio_causal"], text["ratio_rows"]], out)


def _times(ratio, lang=None):
    r = float(ratio)
    return f"{integer(r, lang)}×" if r == round(r) else f"{r:.1f}×"


def ops_table(rows, *, keys=("scores", "kv_rows"), lang=None):
    """Return a Markdown table of counted vs predicted work: (N, counted no-cache, model, counted cache, model) rows."""
    text = labels("kv_cache_tables", lang)
    out = []
    for n, cw, mw, cc, mc in rows:
        for key in keys:
            ok = "✓" if (cw[key], cc[key]) == (mw[key], mc[key]) else "✗"
            out.append(
                [
                    n,
                    f"`{key}`",
                    integer(cw[key], lang),
                    integer(mw[key], lang),
                    integer(cc[key], lang),
                    integer(mc[key], lang),
                    ok,
                ]
            )
    return md_table(
        [
            text["N"],
            text["counter"],
            text["count_wo"],
            text["model_wo"],
            text["count_w"],
            text["model_w"],
            text["match"],
        ],
        out,
    )


def trained_cached_text(rows, *, lang=None):
    """Return a Markdown table: per prompt, the text written recomputing every step and with the cache, how far apart.

    rows: (prompt, recomputed words, cached words, max |Δ logits| over every step).
    """
    text = labels("kv_cache_tables", lang)
    body = [
        [f"`{prompt}`", " ".join(full), " ".join(cached), text["yes"] if full == cached else text["no"], _e(diff)]
        for prompt, full, cached, diff in rows
    ]
    return md_table(text["cols_trained"], body)

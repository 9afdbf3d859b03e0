"""Figures and tables of the chapter "Attention in general": score functions, sqrt(d_k), gradient reach, cost."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures.controls import finish
from primer.figures.look import ACCENT, MUTED, heatmap_traces, styled
from primer.figures.tables import FD_AGREE, fmt_below, hover_integer, integer, md_table, minus, pct
from primer.language import labels, page_lang

SCORE_ORDER = ("additive", "dot", "bilinear", "scaled")


def scores_table(scores, weights, *, lang=None):
    """Return a Markdown table: one row per score function, each key's raw score and softmax weight."""
    text = labels("attention", lang)
    n_k = len(next(iter(scores.values())))
    head = [text["score"]] + [f"{text['k']} {j}" for j in range(n_k)]
    rows = []
    for name in SCORE_ORDER:
        cells = [minus(f"{s:+.2f}") + f" → {pct(w, 0)}" for s, w in zip(scores[name], weights[name])]
        best = int(np.argmax(weights[name]))
        cells[best] = f"**{cells[best]}**"
        rows.append([text["names"][name]] + cells)
    return md_table(head, rows)


def variance_table(rows, *, lang=None):
    """Return a Markdown table of Var(q·k) and Var(q·k/√d_k), measured and in theory, one row per d_k."""
    text = labels("attention", lang)
    head = [text["d_k"], text["var_theory"], text["var_meas"], text["var_scaled_theory"], text["var_scaled"]]
    body = [[d, d, f"{unscaled:.1f}", 1, f"{scaled:.2f}"] for d, unscaled, scaled in rows]
    return md_table(head, body)


def _paren(a, b, lang):
    return f"{a}（{b}）" if page_lang(lang) == "zh" else f"{a} ({b})"


def saturation_table(rows, n_keys, *, lang=None):
    """Return a Markdown table of the softmax's largest weight and entropy, unscaled vs scaled, per d_k."""
    text = labels("attention", lang)
    head = [text["d_k"]] + [
        _paren(text[a], text[b], lang) for a in ("max_w", "entropy") for b in ("unscaled", "scaled")
    ]
    body = [
        [
            d,
            pct(s["unscaled"]["max_weight"], 0),
            pct(s["scaled"]["max_weight"], 0),
            f"{s['unscaled']['entropy']:.2f}",
            f"{s['scaled']['entropy']:.2f}",
        ]
        for d, s in rows
    ]
    uniform = rows[0][1]["uniform_entropy"]
    note = f" (ln {n_keys}): " if page_lang(lang) == "en" else f"（ln {n_keys}）："
    return md_table(head, body) + f"\n{text['uniform']}{note}{uniform:.2f}\n"


def variance_chart(d_ks, variances, saturations, n_keys, *, lang=None):
    """Draw Var(q·k) against d_k (log-log) beside the softmax's largest weight, unscaled vs scaled."""
    text = labels("attention", lang)
    d_ks = list(d_ks)
    fig = make_subplots(
        rows=1,
        cols=2,
        horizontal_spacing=0.12,
        subplot_titles=(text["var_title"], _paren(text["sat_title"], f"{n_keys}{text['keys']}", lang)),
    )
    grid = np.geomspace(min(d_ks), max(d_ks), 50)
    fig.add_trace(
        go.Scatter(x=grid, y=grid, mode="lines", line=dict(color=ACCENT, dash="dot"), name=text["theory_unscaled"]),
        1,
        1,
    )
    fig.add_trace(
        go.Scatter(
            x=grid, y=np.ones_like(grid), mode="lines", line=dict(color=MUTED, dash="dot"), name=text["theory_scaled"]
        ),
        1,
        1,
    )
    fig.add_trace(
        go.Scatter(
            x=d_ks,
            y=[v[0] for v in variances],
            mode="markers",
            marker=dict(color=ACCENT, size=10),
            name=text["meas_unscaled"],
            hovertemplate="d_k = %{x}: %{y:.1f}<extra></extra>",
        ),
        1,
        1,
    )
    fig.add_trace(
        go.Scatter(
            x=d_ks,
            y=[v[1] for v in variances],
            mode="markers",
            marker=dict(color="#1f77b4", size=10),
            name=text["meas_scaled"],
            hovertemplate="d_k = %{x}: %{y:.2f}<extra></extra>",
        ),
        1,
        1,
    )
    fig.add_trace(
        go.Scatter(
            x=d_ks,
            y=[s["unscaled"]["max_weight"] for s in saturations],
            mode="lines+markers",
            line=dict(color=ACCENT),
            name=text["unscaled"],
            hovertemplate="d_k = %{x}: %{y:.2f}<extra></extra>",
        ),
        1,
        2,
    )
    fig.add_trace(
        go.Scatter(
            x=d_ks,
            y=[s["scaled"]["max_weight"] for s in saturations],
            mode="lines+markers",
            line=dict(color="#1f77b4"),
            name=text["scaled"],
            hovertemplate="d_k = %{x}: %{y:.2f}<extra></extra>",
        ),
        1,
        2,
    )
    fig.update_xaxes(type="log", title="d_k")
    fig.update_yaxes(type="log", col=1)
    fig.update_yaxes(range=[0, 1], tickformat=".0%", col=2)
    fig.update_layout(legend=dict(orientation="h", y=-0.25))
    return styled(fig, height=440)


def gradient_reach(reach_by_mask, *, lang=None):
    """Draw ‖∂output_i/∂input_j‖ as a heatmap; buttons switch between no mask and the causal mask."""
    text = labels("attention", lang)
    fig = go.Figure()
    steps = []
    zmax = max(float(r.max()) for r in reach_by_mask.values())
    for key, reach in reach_by_mask.items():
        n = reach.shape[0]
        start = len(fig.data)
        for trace in heatmap_traces(
            reach,
            reach > 0,
            x=[f"{text['in']}{j}" for j in range(n)],
            y=[f"{text['out']}{i}" for i in range(n)],
            closed_text="0",
            zmin=0,
            zmax=zmax,
        ):
            fig.add_trace(trace)
        steps.append((text[key], [start, start + 1], None))
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title=text["reach"])
    return finish(fig, steps, kind="buttons", y=1.04, height=460, margin=dict(t=70))


def grad_table(results, *, lang=None):
    """Return a Markdown table of the gradient check: error vs finite differences, nonzero pairs, smallest block."""
    text = labels("attention", lang)
    head = [text["mask"], text["rel_err"], text["nonzero"], text["smallest"]]
    body = [
        [text[key], fmt_below(err, FD_AGREE), f"{nonzero}{text['of']}{total}", f"{smallest:.3f}"]
        for key, (err, nonzero, total, smallest) in results.items()
    ]
    return md_table(head, body)


def cost_table(rows, *, lang=None):
    """Return a Markdown table of per-layer cost and serial steps, one row per sequence length."""
    text = labels("attention", lang)
    head = ["n", "d", text["attn"], text["rnn"], text["ratio"], text["steps_rnn"], text["steps_attn"]]
    body = [
        [
            integer(r["n"], lang),
            r["d"],
            integer(r["attention"], lang),
            integer(r["rnn"], lang),
            f"{r['ratio']:.2f}",
            integer(r["rnn_steps"], lang),
            r["attention_steps"],
        ]
        for r in rows
    ]
    return md_table(head, body)


def cost_chart(grid, rows, d, *, lang=None):
    """Draw n²d and nd² against n (log-log); a slider walks n and labels the ratio at that n."""
    text = labels("attention", lang)
    grid = list(grid)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(x=grid, y=[n * n * d for n in grid], mode="lines", line=dict(color=ACCENT), name=text["attn"])
    )
    fig.add_trace(
        go.Scatter(x=grid, y=[n * d * d for n in grid], mode="lines", line=dict(color="#1f77b4"), name=text["rnn"])
    )
    steps = []
    for r in rows:
        i = len(fig.data)
        fig.add_trace(
            go.Scatter(
                x=[r["n"], r["n"]],
                y=[r["attention"], r["rnn"]],
                mode="markers+lines",
                marker=dict(size=11, color=[ACCENT, "#1f77b4"]),
                line=dict(color=MUTED, dash="dot"),
                showlegend=False,
                hovertemplate="n = %{x" + hover_integer(lang) + "}: %{y" + hover_integer(lang) + "}<extra></extra>",
            )
        )
        note = text["ratio_note"].format(n=integer(r["n"], lang), r=f"{r['ratio']:.2f}")
        steps.append(
            (
                integer(r["n"], lang),
                [0, 1, i],
                {
                    "annotations": [
                        dict(
                            x=0.02,
                            y=0.98,
                            xref="paper",
                            yref="paper",
                            xanchor="left",
                            yanchor="top",
                            text=note,
                            showarrow=False,
                            font=dict(size=14, color=ACCENT),
                        )
                    ]
                },
            )
        )
    fig.update_xaxes(type="log", title=text["n"])
    fig.update_yaxes(type="log", title=text["ops"])
    fig.update_layout(
        legend=dict(orientation="h", y=1.0, yanchor="bottom", x=0.5, xanchor="center")
    )  # stands on the plot
    active = next(i for i, r in enumerate(rows) if r["n"] >= d)
    return finish(
        fig, steps, kind="slider", prefix=text["at_n"], active=active, y=-0.12, height=540, margin=dict(b=120)
    )

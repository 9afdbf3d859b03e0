"""Figures and tables of the chapter "Self-attention, cross-attention, multi-head, position"."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures.controls import add_control, finish
from primer.figures.look import heatmap_traces, styled
from primer.figures.tables import fmt_change, md_table, pct
from primer.language import labels, page_lang
from primer.rounding import is_rounding


def head_weights(tokens, weights_by_head, *, lang=None):
    """Draw one attention-weight heatmap per head; buttons choose the head (the wide head included)."""
    text = labels("self_cross_heads", lang)
    tokens = list(tokens)
    fig = go.Figure()
    steps = []
    for name, weights in weights_by_head.items():
        start = len(fig.data)
        for trace in heatmap_traces(weights, np.ones(np.shape(weights), bool), x=tokens, y=tokens, zmin=0, zmax=1):
            fig.add_trace(trace)
        steps.append((text["heads"][name], [start, start + 1], None))
    fig.update_yaxes(autorange="reversed", title=text["query"])
    fig.update_xaxes(title=text["key"], side="bottom")
    return finish(fig, steps, kind="buttons", y=1.04, height=560, margin=dict(t=90))


def wide_head_table(query, keys, rows, *, lang=None):
    """Return a Markdown table of one query's weights on a few keys, per head and for the one wide head."""
    text = labels("self_cross_heads", lang)
    n_rest = len(rows[0][1]) - len(keys)
    label = f"{text['query']}“{query}”" if page_lang(lang) == "zh" else f"{text['query']} {query}"
    head = [label] + list(keys.values()) + [text["others"].format(n=n_rest), text["tv"]]
    body = []
    for name, weights, tv in rows:
        picked = [weights[j] for j in keys]
        body.append([text["heads"][name]] + [pct(w) for w in picked] + [pct(1 - sum(picked)), f"{tv:.2f}"])
    return md_table(head, body)


def cross_weights(source, target, self_weights, cross_weights, *, lang=None):
    """Draw the square self-attention map and the rectangular cross-attention map; buttons switch."""
    text = labels("self_cross_heads", lang)
    fig = go.Figure()
    for weights, ys in ((self_weights, source), (cross_weights, target)):
        for trace in heatmap_traces(
            weights, np.ones(np.shape(weights), bool), x=list(source), y=list(ys), zmin=0, zmax=1
        ):
            fig.add_trace(trace)
    fig.update_yaxes(autorange="reversed", title=text["query"])
    fig.update_xaxes(title=text["key"])
    add_control(fig, [(text["self"], [0, 1], None), (text["cross"], [2, 3], None)], kind="buttons")
    return styled(fig, height=420)


def cross_table(source, target, weights, *, lang=None):
    """Return a Markdown table of cross-attention weights: one row per target query, one column per source key."""
    text = labels("self_cross_heads", lang)
    head = [f"{text['query']} \\ {text['key']}"] + list(source)
    body = [[q] + [pct(w, 0) for w in row] for q, row in zip(target, weights)]
    return md_table(head, body)


def position_encoding(pe, *, lang=None):
    """Draw the positional encoding as a heatmap: positions down, dimensions across."""
    text = labels("self_cross_heads", lang)
    n, d = np.shape(pe)
    fig = go.Figure(
        go.Heatmap(
            z=np.asarray(pe).tolist(),
            x=list(range(d)),
            y=list(range(n)),
            colorscale="RdBu",
            zmin=-1,
            zmax=1,
            colorbar=dict(thickness=12),
            hovertemplate=f"{text['pos']} %{{y}}{text['sep']}{text['dim']} %{{x}}{text['colon']}%{{z:.3f}}"
            + "<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed", title=text["pos"])
    fig.update_xaxes(title=text["dim"])
    return styled(fig, height=460, title=text["pe"])


def word_order(tokens_a, tokens_b, outputs, *, lang=None):
    """Draw both sentences' outputs and their word-matched difference; buttons add or drop positions.

    outputs maps "no_pe" / "with_pe" to (out_a, out_b, diff), each [n, d].
    """
    text = labels("self_cross_heads", lang)
    a, b = "".join(tokens_a), "".join(tokens_b)
    fig = make_subplots(
        rows=1,
        cols=3,
        horizontal_spacing=0.08,
        subplot_titles=(text["out_a"].format(a=a), text["out_b"].format(b=b), text["diff"]),
    )
    zmax = max(float(np.abs(o).max()) for trio in outputs.values() for o in trio[:2])
    dmax = max(float(trio[2].max()) for trio in outputs.values()) or 1.0
    steps = []
    for key, (out_a, out_b, diff) in outputs.items():
        start = len(fig.data)
        d = np.shape(out_a)[1]
        dims = [str(j) for j in range(d)]
        for col, z, ys, scale, lo in (
            (1, out_a, tokens_a, "RdBu", -zmax),
            (2, out_b, tokens_b, "RdBu", -zmax),
            (3, diff, tokens_a, "Oranges", 0.0),
        ):
            hi = dmax if col == 3 else zmax
            fig.add_trace(
                go.Heatmap(
                    z=np.asarray(z).tolist(),
                    x=dims,
                    y=list(ys),
                    colorscale=scale,
                    zmin=lo,
                    zmax=hi,
                    showscale=False,
                    xgap=1,
                    ygap=1,
                    hovertemplate="%{y}, %{x}: %{z:.3f}<extra></extra>",
                ),
                row=1,
                col=col,
            )
        steps.append((text[key], list(range(start, start + 3)), None))
    fig.update_yaxes(autorange="reversed")
    fig.update_xaxes(title=text["dim"])
    return finish(fig, steps, kind="buttons", y=1.14, height=360, margin=dict(t=100, r=40))


def word_order_table(rows, *, lang=None):
    """Return a Markdown table: permutation gap and 咬's output difference, without and with positions."""
    text = labels("self_cross_heads", lang)
    head = [text["setting"], text["gap"], text["verb_diff"]]
    return md_table(head, [[text[key], _num(gap), _num(diff)] for key, gap, diff in rows])


def _num(x):
    return fmt_change(x) if is_rounding(x) else f"{x:.3f}"


def config_table(published, *, lang=None):
    """Return a Markdown table of an encoder-decoder's published shape (a primer.published.Published), d_k computed."""
    text = labels("self_cross_heads", lang)
    c = published.config
    values = {
        "encoder_layers": c.n_layers,
        "decoder_layers": c.n_layers,
        "d_model": c.d_model,
        "n_heads": c.n_heads,
        "d_ff": c.d_ff,
    }
    body = [[text["rows"][f], v, text["published"]] for f, v in values.items()]
    body.append([text["rows"]["d_k"], f"**{c.d_head}**", text["computed"]])
    return md_table([text["field"], text["value"], text["source"]], body)

"""Figures of the chapter "The mask is the whole difference": scores + mask -> softmax."""

import re
import textwrap

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures.controls import add_control
from primer.figures.look import ACCENT, CLOSED_COLOR, MUTED, NEG_INF, heatmap_traces, styled
from primer.figures.tables import md_table, pct
from primer.language import labels, page_lang


def _ticks(n, word):
    return [f"{word} {i}" for i in range(n)]


def scores_mask_softmax(scores, mask, weights, *, lang=None):
    """Draw scores, the additive mask and the softmax weights as three heatmaps side by side."""
    text = labels("mask", lang)
    n_q, n_k = np.shape(scores)
    x, y = _ticks(n_k, text["k"]), _ticks(n_q, text["q"])
    fig = make_subplots(
        rows=1, cols=3, subplot_titles=(text["scores"], text["mask"], "= " + text["weights"]), horizontal_spacing=0.06
    )
    for trace in heatmap_traces(
        scores, np.ones_like(mask), x=x, y=y, fmt="{:.1f}", colorscale="Greys", zmin=-1, zmax=6
    ):
        fig.add_trace(trace, row=1, col=1)
    for trace in heatmap_traces(
        np.zeros(np.shape(mask)), mask, x=x, y=y, fmt="{:.0f}", colorscale=[[0, "#ffffff"], [1, "#ffffff"]]
    ):
        fig.add_trace(trace, row=1, col=2)
    for trace in heatmap_traces(weights, mask, x=x, y=y, fmt="{:.2f}", closed_text="0", zmin=0, zmax=1):
        fig.add_trace(trace, row=1, col=3)
    fig.update_yaxes(autorange="reversed")
    fig.update_yaxes(showticklabels=False, col=2)
    fig.update_yaxes(showticklabels=False, col=3)
    return styled(fig, height=300)


def row_walk(weights, mask, *, lang=None):
    """Draw one query row's weights as bars; a slider walks the rows."""
    text = labels("mask", lang)
    n_q, n_k = np.shape(weights)
    x = _ticks(n_k, text["k"])
    fig = go.Figure()
    steps = []
    for i in range(n_q):
        colors = [ACCENT if mask[i][j] else CLOSED_COLOR for j in range(n_k)]
        cells = [
            f"{weights[i][j]:.2f}"
            if mask[i][j]
            else (f"0（{text['masked']}）" if page_lang(lang) == "zh" else f"0 ({text['masked']})")
            for j in range(n_k)
        ]
        fig.add_trace(
            go.Bar(
                x=x,
                y=list(weights[i]),
                marker_color=colors,
                text=cells,
                textposition="outside",
                name=f"{text['row']}{i}",
                hovertemplate="%{x}: %{y:.4f}<extra></extra>",
            )
        )
        steps.append((i, [i], None))
    fig.update_yaxes(range=[0, 1.15], title=text["weight"])
    fig.update_layout(showlegend=False)
    add_control(fig, steps, kind="slider", prefix=text["row"])
    return styled(fig, height=400)


def fill_rule(correct, buggy, open_row, *, leak_key, lang=None):
    """Draw one row's weights under the −∞ rule and the 0 rule; buttons switch the rule."""
    text = labels("mask", lang)
    n_k = len(correct)
    x = _ticks(n_k, text["k"])
    fig = go.Figure()
    for weights, leak_color in ((correct, CLOSED_COLOR), (buggy, "#d62728")):
        colors = [ACCENT if open_row[j] else leak_color for j in range(n_k)]
        fig.add_trace(
            go.Bar(
                x=x,
                y=list(weights),
                marker_color=colors,
                text=[pct(w) for w in weights],
                textposition="outside",
                hovertemplate="%{x}: %{y:.4f}<extra></extra>",
            )
        )
    fig.update_yaxes(range=[0, 0.85], title=text["weight"], tickformat=".0%")
    fig.update_layout(showlegend=False)
    note = text["leak"].format(k=leak_key, p=pct(buggy[leak_key]))
    add_control(
        fig,
        [
            (text["rule_inf"], [0], {"annotations": []}),
            (
                text["rule_zero"],
                [1],
                {
                    "annotations": [
                        dict(
                            x=x[leak_key],
                            y=buggy[leak_key] + 0.1,
                            text=note,
                            showarrow=False,
                            font=dict(color="#d62728"),
                        )
                    ]
                },
            ),
        ],
        kind="buttons",
    )
    return styled(fig, height=400)


def wrap_lines(text):
    """Return text cut into lines that fit a 320 px plot at 13 px: at spaces, or anywhere in Chinese (wider glyphs)."""
    width = 22 if re.search(r"[\u3000-\u9fff]", text) else 44
    return textwrap.wrap(text, width, break_on_hyphens=False) or [""]


def sliding_window(scores, windows, weights_by_window, refusals, *, lang=None):
    """Draw the weights under each window; the slider runs down to windows that primer refuses."""
    text = labels("mask", lang)
    n = np.shape(scores)[0]
    x, y = _ticks(n, text["k"]), _ticks(n, text["q"])
    fig = go.Figure()
    steps = []
    for w in windows:
        if w in weights_by_window:
            weights, mask = weights_by_window[w]
            start = len(fig.data)
            for trace in heatmap_traces(weights, mask, x=x, y=y, closed_text="0", zmin=0, zmax=1):
                fig.add_trace(trace)
            steps.append((w, [start, start + 1], {"annotations": []}))
        else:
            start = len(fig.data)
            for trace in heatmap_traces(np.zeros((n, n)), np.zeros((n, n), bool), x=x, y=y, closed_text=NEG_INF):
                fig.add_trace(trace)
            # primer's refusal whole in the page's language (the en label is primer's message: tests/chapters pin
            # it), in lines that fit a phone's width: an annotation does not wrap, a wider line is cut at both ends
            said = text["refused_window"].format(window=w) if refusals[w].startswith("window must be") else refusals[w]
            msg = "<br>".join(wrap_lines(text["refused"] + said))
            steps.append(
                (
                    w,
                    [start, start + 1],
                    {
                        "annotations": [
                            dict(
                                x=0.5,
                                y=0.5,
                                xref="paper",
                                yref="paper",
                                text=msg,
                                showarrow=False,
                                bgcolor="#fff3e0",
                                bordercolor="#d62728",
                                font=dict(color="#b71c1c", size=13),
                            )
                        ]
                    },
                )
            )
    fig.update_yaxes(autorange="reversed")
    add_control(fig, steps, kind="slider", prefix=text["window"], active=0)
    fig.update_xaxes(color=MUTED)
    return styled(fig, height=460)


def padding_masks(batch, cases, *, lang=None):
    """Draw the mask of each padded sentence side by side; buttons switch mask (full/causal) and padding side.

    batch: the sentences' tokens; cases: list of (causal, side, masks [b, n, n], real [b, n],
    empty_under_and [b, n]) with primer's masks.
    """
    text = labels("mask", lang)
    n = np.shape(cases[0][2])[-1]
    b = len(batch)
    colors = [
        [0, CLOSED_COLOR],
        [0.33, CLOSED_COLOR],
        [0.34, ACCENT],
        [0.66, ACCENT],
        [0.67, "#7b9fd4"],
        [0.99, "#7b9fd4"],
        [1, "#d62728"],
    ]
    fig = make_subplots(
        rows=1, cols=b, subplot_titles=[f"{text['sentence']} {s}" for s in range(b)], horizontal_spacing=0.06
    )
    steps = []
    for causal, side, masks, real, empty in cases:
        shown = []
        for s in range(b):
            words = list(batch[s])
            pad = [text["pad"]] * (n - len(words))
            ticks = words + pad if side == "right" else pad + words
            ticks = [f"{i} {w}" for i, w in enumerate(ticks)]
            z, cells, hover = [], [], []
            for i in range(n):
                zr, tr, hr = [], [], []
                for j in range(n):
                    if not masks[s][i][j]:
                        zr.append(0), tr.append(""), hr.append("−∞")
                    elif real[s][i]:
                        zr.append(1), tr.append("✓"), hr.append(text["open"])
                    elif empty[s][i]:
                        zr.append(3), tr.append("!"), hr.append(text["empty"] + " → " + text["self"])
                    else:
                        zr.append(2), tr.append("○"), hr.append(text["self"])
                    hr[-1] = f"{ticks[i]} → {ticks[j]}: {hr[-1]}"
                z.append(zr), cells.append(tr), hover.append(hr)
            fig.add_trace(
                go.Heatmap(
                    z=z,
                    x=ticks,
                    y=list(range(n)),  # rows by number: the words are under each column, and a word on the left
                    # of a panel would run into the panel before it
                    text=cells,
                    texttemplate="%{text}",
                    customdata=hover,
                    colorscale=colors,
                    zmin=0,
                    zmax=3,
                    showscale=False,
                    xgap=2,
                    ygap=2,
                    hovertemplate="%{customdata}<extra></extra>",
                ),
                row=1,
                col=s + 1,
            )
            shown.append(len(fig.data) - 1)
        label = text["state"].format(m=text["causal" if causal else "full"], s=text[side])
        steps.append((label, shown, None))
    fig.update_yaxes(autorange="reversed", dtick=1)
    fig.update_xaxes(tickangle=-45)
    add_control(fig, steps, kind="dropdown")
    return styled(fig, height=430)


def weights_table(weights, *, digits=1, lang=None):
    """Return a Markdown table of attention weights in percent, one query row per line."""
    text = labels("mask_tables", lang)
    n_q, n_k = np.shape(weights)
    head = [text["q"]] + [f"{text['k']} {j}" for j in range(n_k)]
    rows = [[f"{text['q']} {i}"] + [pct(w, digits) for w in weights[i]] for i in range(n_q)]
    return md_table(head, rows)


def padding_table(rows, *, lang=None):
    """Return a Markdown table, one line per (mask, padding side): padded query rows, rows the plain AND empties.

    The last column is the largest difference of the real rows from each sentence run alone.

    rows: (causal, side, n_padded, n_empty, diff_text).
    """
    text = labels("mask_tables", lang)
    head = [text["mask_kind"], text["side"], text["padded_rows"], text["empty_rows"], text["real_rows"]]
    return md_table(head, [[text["causal" if c else "full"], text[side], p, e, d] for c, side, p, e, d in rows])


def conventions_table(conventions, *, lang=None):
    """Return a Markdown table of how each library spells a mask and what it does with an empty row.

    conventions: primer.conventions.CONVENTIONS.
    """
    text = labels("mask_tables", lang)
    head = [text["conv_call"], text["conv_arg"], text["conv_true"], text["conv_causal"], text["conv_empty"]]
    rows = [
        [_code(c.call), _code(c.argument), text[c.true_means], text[c.causal], text[c.empty_row]] for c in conventions
    ]
    return md_table(head, rows)


def _code(identifier):
    """Return identifier as inline code that a narrow column breaks after '_' or '.' (primer.css: never in a word)."""
    escaped = identifier.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    for mark in ("_", "."):
        escaped = escaped.replace(mark, mark + "<wbr>")
    return f"<code>{escaped}</code>"


def fill_rule_table(correct, buggy, open_row, *, leak_key, replaced=None, lang=None):
    """Return a Markdown table of one row's weights under the −∞ rule, the add-0 bug and, if given, masked_fill(0)."""
    text = labels("mask_tables", lang)
    n_k = len(correct)
    head = [text["rule"]] + [f"{text['k']} {j}" + ("" if open_row[j] else text["closed"]) for j in range(n_k)]
    rows = []
    ways = ((text["inf"], correct), (text["zero"], buggy)) + (
        () if replaced is None else ((text["fill_zero"], replaced),)
    )
    for label, weights in ways:
        cells = [pct(w) for w in weights]
        cells[leak_key] = f"**{cells[leak_key]}**"
        rows.append([label] + cells)
    return md_table(head, rows)

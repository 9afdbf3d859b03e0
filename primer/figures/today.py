"""Figures and tables of the chapter "Today's models": an image sensor feeding a decoder, and the kinds of block."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures.look import ACCENT, PHONE_GAP, heatmap_traces, phone_layout, pin_titles, styled
from primer.figures.tables import integer, md_table, ranges, visible_char
from primer.language import labels


def image_prefix_table(dep, n_patches, caption, *, lang=None):
    """Return a Markdown table: each row of [image patches; text], the patches and text positions its output reads."""
    text = labels("today", lang)
    dep = np.asarray(dep, bool)
    rows = []
    for i in range(dep.shape[0]):
        label = (
            text["row_img"].format(k=i)
            if i < n_patches
            else text["row_txt"].format(k=i - n_patches, c=visible_char(caption[i - n_patches]))
        )
        patches = ranges([j for j in range(n_patches) if dep[i, j]]) or text["none"]
        chars = ranges([j - n_patches for j in range(n_patches, dep.shape[1]) if dep[i, j]]) or text["none"]
        rows.append([label, patches, chars])
    return md_table([text["row_kind"], text["col_patches"], text["col_text"]], rows)


def image_prefix(image, dep, n_patches, caption, *, lang=None):
    """Draw the toy image cut into patches, and the measured dependence of every row of [patches; text]."""
    text = labels("today", lang)
    dep = np.asarray(dep, bool)
    ticks = [f"{text['patch']}{i}" for i in range(n_patches)] + [
        f"{i} {visible_char(c)}" for i, c in enumerate(caption)
    ]
    fig = make_subplots(
        rows=1, cols=2, column_widths=[0.36, 0.64], horizontal_spacing=0.1, subplot_titles=(text["image"], text["dep"])
    )
    img = np.asarray(image)
    fig.add_trace(
        go.Heatmap(
            z=img.tolist(), colorscale="Greys", showscale=False, xgap=1, ygap=1, hovertemplate="%{z:.2f}<extra></extra>"
        ),
        row=1,
        col=1,
    )
    side = img.shape[0]
    g = int(round(n_patches**0.5))
    step = side // g
    fig.update_layout(annotations=pin_titles(fig, [(1, 1), (1, 2)]))  # titles that follow their panels on a phone
    for k in range(n_patches):
        r, c = divmod(k, g)
        fig.add_annotation(
            x=c * step + (step - 1) / 2,
            y=r * step + (step - 1) / 2,
            text=f"<b>{text['patch']}{k}</b>",
            showarrow=False,
            bgcolor="rgba(255,255,255,0.85)",
            font=dict(color=ACCENT, size=13),
            row=1,
            col=1,
        )
    for v in range(step, side, step):
        edge = dict(type="line", line=dict(color=ACCENT, width=2), row=1, col=1)
        fig.add_shape(x0=v - 0.5, x1=v - 0.5, y0=-0.5, y1=side - 0.5, **edge)
        fig.add_shape(x0=-0.5, x1=side - 0.5, y0=v - 0.5, y1=v - 0.5, **edge)
    for trace in heatmap_traces(
        np.ones(dep.shape),
        dep,
        x=range(len(ticks)),
        y=range(len(ticks)),
        fmt="●",
        colorscale=[[0, "#1f77b4"], [1, "#1f77b4"]],
    ):
        trace.update(hovertemplate=None, hoverinfo="skip")
        fig.add_trace(trace, row=1, col=2)
    fig.update_yaxes(autorange="reversed", showticklabels=False, row=1, col=1)
    fig.update_xaxes(showticklabels=False, row=1, col=1)
    fig.update_xaxes(tickvals=list(range(len(ticks))), ticktext=ticks, row=1, col=2)
    fig.update_yaxes(tickvals=list(range(len(ticks))), ticktext=ticks, autorange="reversed", row=1, col=2)
    fig.add_vline(x=n_patches - 0.5, line=dict(color=ACCENT, width=2, dash="dot"), row=1, col=2)
    fig.add_hline(y=n_patches - 0.5, line=dict(color=ACCENT, width=2, dash="dot"), row=1, col=2)
    fig.update_layout(yaxis=dict(scaleanchor="x"))
    styled(fig, height=420)
    # on a phone the image above the dependence, each as wide as the figure
    return phone_layout(fig, [("xaxis", "yaxis", 200, 40), ("xaxis2", "yaxis2", 320, PHONE_GAP)], below=60)


def block_kinds_table(kinds, *, lang=None):
    """Return a Markdown table of each design's kinds of block: sub-layers, parameters per block, how many."""
    text = labels("today", lang)
    rows = []
    for design, entries in kinds.items():
        for k, (subs, n_params, count) in enumerate(entries):
            rows.append(
                [
                    text["designs"][design],
                    k + 1,
                    " + ".join(text["sub"][s] for s in subs),
                    integer(n_params, lang),
                    count,
                ]
            )
    return md_table(
        [text["col_design"], text["col_kind"], text["col_sub"], text["col_params"], text["col_count"]], rows
    )

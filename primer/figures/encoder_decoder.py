"""Figures of the chapter "Encoder-decoder": two stacks, one memory, two sub-layers, the full rectangle, two layouts."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures.controls import annotated_step, finish
from primer.figures.look import (
    ACCENT,
    LEFT_COLOR,
    RIGHT_COLOR,
    heatmap_traces,
    note,
    on_phone,
    on_subplot,
    panel_title,
    phone_layout,
    row_box,
    styled,
    tick_labels,
)
from primer.figures.tables import integer, md_table, pct
from primer.language import labels

CROSS_COLOR = "#9467bd"
REGION_COLORS = {1: LEFT_COLOR, 2: CROSS_COLOR, 3: RIGHT_COLOR, 4: "#8c564b"}  # primer.encoder_decoder region codes


def _stack_boxes(n_layers, layer, x, color):
    """Return a scatter of square markers, one per layer, bottom to top; the chosen layer in ACCENT."""
    return go.Scatter(
        x=[x] * n_layers,
        y=list(range(1, n_layers + 1)),
        mode="markers+text",
        text=[str(i) for i in range(1, n_layers + 1)],
        textfont=dict(color="white"),
        marker=dict(symbol="square", size=26, color=[ACCENT if i == layer else color for i in range(n_layers)]),
        hoverinfo="skip",
        showlegend=False,
    )


def two_stacks(src, tgt, enc_w, dec_w, *, lang=None):
    """Walk both stacks layer by layer: the encoder's full self-attention beside the decoder's causal one."""
    text = labels("encoder_decoder", lang)
    n_layers = len(enc_w)
    fig = make_subplots(
        rows=1, cols=3, column_widths=[0.16, 0.42, 0.42], horizontal_spacing=0.08, subplot_titles=("", "", "")
    )
    m, n = len(src), len(tgt)
    steps = []
    zmax = max(float(np.max(enc_w)), float(np.max(dec_w)))
    for layer in range(n_layers):
        start = len(fig.data)
        fig.add_trace(_stack_boxes(n_layers, layer, 0, LEFT_COLOR), row=1, col=1)
        fig.add_trace(_stack_boxes(n_layers, layer, 1, RIGHT_COLOR), row=1, col=1)
        for trace in heatmap_traces(
            enc_w[layer],
            np.ones((m, m), bool),
            x=tick_labels(src),
            y=tick_labels(src),
            zmin=0,
            zmax=zmax,
            xaxis="x2",
            yaxis="y2",
        ):
            fig.add_trace(trace)
        for trace in heatmap_traces(
            dec_w[layer],
            np.tri(n, dtype=bool),
            x=tick_labels(tgt),
            y=tick_labels(tgt),
            closed_text="0",
            zmin=0,
            zmax=zmax,
            xaxis="x3",
            yaxis="y3",
        ):
            fig.add_trace(trace)
        steps.append(
            annotated_step(
                layer + 1,
                range(start, len(fig.data)),
                panel_title(text["enc_self"].format(l=layer + 1), "xaxis2", "yaxis2"),
                panel_title(text["dec_self"].format(l=layer + 1), "xaxis3", "yaxis3"),
                # the two columns stand closer than their names are wide: one name under the other
                note(text["enc"], 0, 0, on="data", font=dict(color=LEFT_COLOR)),
                note(text["dec"], 1, -0.6, on="data", font=dict(color=RIGHT_COLOR)),
            )
        )
    fig.update_xaxes(visible=False, range=[-0.9, 1.9], row=1, col=1)
    fig.update_yaxes(visible=False, range=[-1.0, n_layers + 0.6], row=1, col=1)
    fig.update_yaxes(autorange="reversed", row=1, col=2)
    fig.update_yaxes(autorange="reversed", row=1, col=3)
    fig.update_xaxes(tickangle=-45, row=1, col=2)
    fig.update_xaxes(tickangle=-45, row=1, col=3)
    finish(fig, steps, kind="slider", prefix=text["layer_prefix"], height=480, margin=dict(t=70))
    # on a phone the two stacks above the two heatmaps, one under the other
    panels = [("xaxis", "yaxis", 150, 10), ("xaxis2", "yaxis2", 260, 50), ("xaxis3", "yaxis3", 260, 110)]
    return phone_layout(fig, panels, below=20)


def shared_memory(src, tgt, cross_w, *, lang=None):
    """Show that every decoder layer reads the same memory: a slider picks the layer; its arc lands on one box."""
    text = labels("encoder_decoder", lang)
    n_layers = len(cross_w)
    m, n = len(src), len(tgt)
    fig = make_subplots(rows=1, cols=2, column_widths=[0.38, 0.62], horizontal_spacing=0.12)
    zmax = float(np.max(cross_w))
    steps = []
    for layer in range(n_layers):
        start = len(fig.data)
        fig.add_trace(_stack_boxes(n_layers, layer, 1, RIGHT_COLOR), row=1, col=1)
        fig.add_trace(
            go.Scatter(
                x=[0.0],
                y=[(n_layers + 1) / 2],
                mode="markers",
                hoverinfo="skip",
                showlegend=False,
                marker=dict(symbol="square", size=60, color=LEFT_COLOR, opacity=0.85),
            ),
            row=1,
            col=1,
        )
        fig.add_trace(
            go.Scatter(
                x=[0.3, 0.85],
                y=[(n_layers + 1) / 2, layer + 1],
                mode="lines+markers",
                showlegend=False,
                hoverinfo="skip",
                line=dict(color=CROSS_COLOR, width=3),
                marker=dict(symbol="arrow", angleref="previous", size=12, color=CROSS_COLOR),
            ),
            row=1,
            col=1,
        )
        for trace in heatmap_traces(
            cross_w[layer],
            np.ones((n, m), bool),
            x=tick_labels(src),
            y=tick_labels(tgt),
            zmin=0,
            zmax=zmax,
            xaxis="x2",
            yaxis="y2",
            colorscale="Purples",
        ):
            fig.add_trace(trace)
        steps.append(
            annotated_step(
                layer + 1,
                range(start, len(fig.data)),
                # two lines: one would run into the decoder's boxes
                note(text["memory"], 0, (n_layers + 1) / 2 - 1.8, on="data", font=dict(color=LEFT_COLOR)),
                note(text["dec"], 1, 0, on="data", font=dict(color=RIGHT_COLOR)),
                panel_title(text["cross_w"].format(l=layer + 1), "xaxis2", "yaxis2"),
                # under the heatmap's words, from the figure's left
                dict(
                    on_subplot(note(text["once"], 0, 0, xanchor="left", yanchor="top"), "xaxis2", "yaxis2", x=0, y=0),
                    xref="paper",
                    yshift=-62,
                    font=dict(color=CROSS_COLOR),
                ),
            )
        )
    fig.update_xaxes(visible=False, range=[-0.6, 1.5], row=1, col=1)
    fig.update_yaxes(visible=False, range=[-1.0, n_layers + 0.6], row=1, col=1)
    fig.update_yaxes(autorange="reversed", row=1, col=2)
    fig.update_xaxes(tickangle=-45, row=1, col=2)
    finish(fig, steps, kind="slider", prefix=text["layer_prefix"], y=-0.3, height=520, margin=dict(b=150, t=70))
    # on a phone the stack and its memory above the heatmap
    return phone_layout(fig, [("xaxis", "yaxis", 170, 10), ("xaxis2", "yaxis2", 300, 60)], below=10)


def two_sublayers(src, tgt, self_w, cross_w, row, *, lang=None):
    """Draw one decoder block's two attention sub-layers side by side; the same query row is outlined in both."""
    text = labels("encoder_decoder", lang)
    m, n = len(src), len(tgt)
    fig = make_subplots(
        rows=1,
        cols=2,
        column_widths=[n / (n + m), m / (n + m)],
        horizontal_spacing=0.1,
        subplot_titles=(text["self_sub"], text["cross_sub"]),
    )
    # One range for both panels: a cell as dark in one as in the other holds the same weight. Each keeps its
    # colour (blue: the decoder's own past; purple: cross-attention, as in every figure of the chapter).
    zmax = float(max(np.max(self_w), np.max(cross_w)))
    for trace in heatmap_traces(
        self_w,
        np.tri(n, dtype=bool),
        x=tick_labels(tgt),
        y=tick_labels(tgt),
        closed_text="0",
        zmin=0,
        zmax=zmax,
    ):
        fig.add_trace(trace, row=1, col=1)
    for trace in heatmap_traces(
        cross_w,
        np.ones((n, m), bool),
        x=tick_labels(src),
        y=tick_labels(tgt),
        zmin=0,
        zmax=zmax,
        colorscale="Purples",
    ):
        fig.add_trace(trace, row=1, col=2)
    for col, width in ((1, n), (2, m)):
        fig.add_shape(row_box(row, width), row=1, col=col)
    fig.update_yaxes(autorange="reversed")
    fig.update_yaxes(showticklabels=False, col=2)
    fig.update_xaxes(tickangle=-45)
    fig.update_annotations(font_size=12)
    fig = styled(fig, height=420)
    fig.update_layout(margin=dict(t=70))
    return fig


def cross_rows(src, tgt, cross_w, mask, *, lang=None):
    """Walk the decoder rows of the cross-attention: every source column is open on every row."""
    text = labels("encoder_decoder", lang)
    m, n = len(src), len(tgt)
    mask = np.asarray(mask)
    fig = go.Figure()
    for trace in heatmap_traces(cross_w, mask, x=tick_labels(src), y=tick_labels(tgt), zmin=0, colorscale="Purples"):
        fig.add_trace(trace)
    steps = []
    for i in range(n):
        box = row_box(i, m)
        title = text["row_title"].format(i=i, w=tgt[i], k=int(mask[i].sum()), m=m)
        steps.append((f"{i} {tgt[i]}", [0, 1], {"shapes": [box], "title.text": title}))
    fig.update_yaxes(autorange="reversed")
    return finish(fig, steps, kind="slider", prefix=text["row"], height=440, margin=dict(t=60), title_step=0)


def two_layouts(two, one, *, lang=None):
    """Draw the two layouts of a translation on one grid each; buttons switch layout.

    two and one are (words, mask, region codes) as primer.encoder_decoder builds them.
    """
    text = labels("encoder_decoder", lang)
    fig = go.Figure()
    steps = []
    scale = [
        [0.0, REGION_COLORS[1]],
        [0.25, REGION_COLORS[1]],
        [0.25, REGION_COLORS[2]],
        [0.5, REGION_COLORS[2]],
        [0.5, REGION_COLORS[3]],
        [0.75, REGION_COLORS[3]],
        [0.75, REGION_COLORS[4]],
        [1.0, REGION_COLORS[4]],
    ]
    for k, ((words, mask, region), name, names) in enumerate(
        ((two, text["two"], text["legend_two"]), (one, text["one"], text["legend_one"]))
    ):
        codes = (1, 2, 3) if k == 0 else (4, 2, 3)
        legend = "　".join(f'<span style="color:{REGION_COLORS[c]}">■</span> {label}' for c, label in zip(codes, names))
        size = len(words)
        start = len(fig.data)
        for trace in heatmap_traces(
            region, mask, x=list(range(size)), y=list(range(size)), fmt="●", zmin=0.5, zmax=4.5, colorscale=scale
        ):
            fig.add_trace(trace)
        axis = dict(tickvals=list(range(size)), ticktext=list(words), range=[-0.5, size - 0.5])
        steps.append(
            (
                name,
                [start, start + 1],
                {
                    "xaxis.tickvals": axis["tickvals"],
                    "xaxis.ticktext": axis["ticktext"],
                    "xaxis.range": axis["range"],
                    "yaxis.tickvals": axis["tickvals"],
                    "yaxis.ticktext": axis["ticktext"],
                    "yaxis.range": [size - 0.5, -0.5],
                    "annotations": [  # top-anchored: wrapped on a phone, it grows away from the words above it
                        dict(
                            text=legend,
                            x=0,
                            y=-0.22,
                            xref="paper",
                            yref="paper",
                            xanchor="left",
                            yanchor="top",
                            yshift=10,
                            showarrow=False,
                        )
                    ],
                },
            )
        )
    fig.update_xaxes(tickangle=-60, constrain="domain")
    fig.update_yaxes(scaleanchor="x")
    fig.update_layout(steps[0][2])
    finish(fig, steps, kind="buttons", height=620, margin=dict(b=120, t=70))
    return on_phone(fig, layout={"height": 680, "margin.b": 180})  # room for the legend's wrapped lines


def projection_table(rows, *, lang=None):
    """Return a Markdown table: steps, projections when reused, projections when recomputed."""
    text = labels("encoder_decoder_tables", lang)
    return md_table([text["steps"], text["once"], text["naive"]], [[s, f"**{a}**", b] for s, a, b in rows])


def layout_table(summary, *, lang=None):
    """Return a Markdown table comparing the two translation layouts."""
    text = labels("encoder_decoder_tables", lang)
    return md_table(
        [text["layout"], text["side"], text["open"], text["bidir"]],
        [[text[name], side, cells, text["yes"] if bidir else text["no"]] for name, side, cells, bidir in summary],
    )


def anatomy_table(rows, *, lang=None):
    """Return a Markdown table of each sub-layer's weight count in an encoder block and a decoder block."""
    text = labels("encoder_decoder_anatomy", lang)
    cell = lambda n: text["none"] if n is None else integer(n, lang)  # noqa: E731
    body = [[text[name][0], f"`{text[name][1]}`", cell(enc), cell(dec)] for name, enc, dec in rows]
    body.append(
        [
            f"**{text['total']}**",
            "",
            f"**{integer(sum(e or 0 for _, e, _ in rows), lang)}**",
            f"**{integer(sum(d or 0 for _, _, d in rows), lang)}**",
        ]
    )
    return md_table(text["head"], body)


# ---- the toy translation, learned


def learned_alignment(src, tgt, gold, trained_w, start_w, *, lang=None):
    """Draw each layer's and head's cross-attention on one colour scale, gold outlined; buttons: trained, untrained.

    gold is [n] source positions; trained_w and start_w are [layers, h, n, m] on the same held-out pair.
    """
    text = labels("encoder_decoder_trained", lang)
    n_layers, n_heads, n, m = np.shape(trained_w)
    titles = [text["map"].format(l=i + 1, h=h + 1) for i in range(n_layers) for h in range(n_heads)]
    fig = make_subplots(
        rows=n_layers,
        cols=n_heads,
        subplot_titles=titles,
        shared_xaxes=True,
        shared_yaxes=True,
        horizontal_spacing=0.04,
        vertical_spacing=0.09,
    )
    x, y = tick_labels(src), tick_labels(tgt)
    shown = {}
    for name, w in (("trained", trained_w), ("start", start_w)):
        shown[name] = []
        for k in range(n_layers * n_heads):
            shown[name].append(len(fig.data))
            # cross-attention closes no cell: only the first (open) trace of each pair is drawn, the page weighs less
            trace = heatmap_traces(w[k // n_heads, k % n_heads], True, x=x, y=y, visible=name == "trained")[0]
            # colour carries the weight (one scale, its bar at the right), the hover gives it; no number in a cell
            trace.update(
                text=None,
                texttemplate=None,
                colorscale="Purples",  # the coloraxis's, which it follows: html.to_html wants every heatmap to name one
                coloraxis="coloraxis",
                hovertemplate="%{y} → %{x}: %{z:.2f}<extra></extra>",
            )
            fig.add_trace(trace, row=k // n_heads + 1, col=k % n_heads + 1)
    for k in range(n_layers * n_heads):  # the gold source word of each target word, outlined in every panel
        for i, j in enumerate(gold):
            fig.add_shape(
                type="rect",
                x0=j - 0.5,
                x1=j + 0.5,
                y0=i - 0.5,
                y1=i + 0.5,
                line=dict(color=ACCENT, width=2),
                row=k // n_heads + 1,
                col=k % n_heads + 1,
            )
    fig.add_trace(  # the outline's legend entry: a marker of the same look, never drawn on the axes
        go.Scatter(
            x=[None],
            y=[None],
            mode="markers",
            name=text["gold"],
            marker=dict(symbol="square-open", size=12, color=ACCENT, line=dict(width=2)),
            hoverinfo="skip",
        )
    )
    steps = [(text[name], shown[name] + [len(fig.data) - 1], {}) for name in ("trained", "start")]
    fig.update_yaxes(autorange="reversed", tickmode="array", tickvals=y)  # every word labelled, none skipped
    fig.update_xaxes(tickangle=-90, tickmode="array", tickvals=x)
    fig.update_annotations(font_size=12)
    fig.update_layout(
        coloraxis=dict(
            colorscale="Purples",
            cmin=0,
            cmax=1,
            colorbar=dict(title=dict(text=text["weight"], side="right"), thickness=12, len=0.8),
        ),
        showlegend=True,  # one entry, the outline's: plotly would leave a lone entry out
        legend=dict(orientation="h", x=0, xanchor="left", y=-0.17, yanchor="top"),
    )
    return finish(fig, steps, kind="buttons", y=1.1, height=300 + 190 * n_layers, margin=dict(t=110, b=110, r=10))


def translation_data_table(rows, *, lang=None):
    """Return a Markdown table per seed: training and held-out pairs, held-out sources seen in training, diagonals."""
    text = labels("encoder_decoder_trained", lang)
    return md_table([text["seed"], text["train_pairs"], text["held_pairs"], text["overlap"], text["diagonal"]], rows)


def translation_example_table(source, target, order, *, lang=None):
    """Return a Markdown table of one pair, word by word: each target word and the source word it renders."""
    text = labels("encoder_decoder_trained", lang)
    body = [[j, f"`{t}`", i, f"`{source[i]}`"] for j, (t, i) in enumerate(zip(target, order))]
    return md_table([text["tgt_pos"], text["tgt_word"], text["src_pos"], text["src_word"]], body)


def translation_scores_table(runs, *, lang=None):
    """Return a Markdown table per seed and model: weights, held-out sentences exact, held-out words right, training."""
    text = labels("encoder_decoder_trained", lang)
    rows = []
    for seed, run in runs:
        n_held = len(run.pairs.heldout)
        for model in ("encoder-decoder", "decoder-only"):
            rows.append(
                [
                    seed,
                    text[model],
                    f"{run.params_count[model]}",
                    f"{round(run.exact[model] * n_held)} / {n_held}",
                    pct(run.per_token[model]),
                    pct(run.train_exact[model]),
                ]
            )
    head = [text["seed"], text["model"], text["weights"], text["exact"], text["per_token"], text["train_exact"]]
    return md_table(head, rows)


def alignment_table(trained, start, chance, *, lang=None):
    """Return a Markdown table per decoder layer and head: how often the top cross weight is on the word's source."""
    text = labels("encoder_decoder_trained", lang)
    trained, start = np.asarray(trained), np.asarray(start)  # [seeds, layers, h]

    def span(a):
        return f"{pct(a.min(), 0)}–{pct(a.max(), 0)}"

    rows = [
        [i + 1, h + 1, span(trained[:, i, h]), span(start[:, i, h])]
        for i in range(trained.shape[1])
        for h in range(trained.shape[2])
    ]
    rows.append([text["chance"], "", pct(chance, 0), pct(chance, 0)])
    return md_table([text["layer"], text["head"], text["trained"], text["start"]], rows)

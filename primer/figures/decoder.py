"""Figures of the chapter "Decoder-only": one row causal vs bidirectional, the growing visible range, the leak."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures._tokens import arc_trace, token_figure, token_trace
from primer.figures.controls import add_control, finish
from primer.figures.look import ACCENT, LEFT_COLOR, MUTED, heatmap_traces, styled, tick_labels
from primer.figures.tables import md_table, pct
from primer.language import labels
from primer.rounding import is_rounding

LEAK_COLOR = "#d62728"


def fmt_delta(x):
    """Format a |Δ|: rounding (below primer.rounding.BOUND, 0 in exact arithmetic) prints as 0.0, anything else with four decimals."""
    x = float(x)
    return "0.0" if is_rounding(x) else f"{x:.4f}"


def same_row(words, w_full, w_causal, row, *, lang=None):
    """Draw the same query row under a full mask and under a causal mask, side by side."""
    text = labels("decoder", lang)
    n = len(words)
    ticks = tick_labels(words)
    fig = make_subplots(rows=1, cols=2, subplot_titles=(text["full"], text["causal"]), horizontal_spacing=0.1)
    full, causal = np.ones((n, n), bool), np.tri(n, dtype=bool)
    for col, (w, m) in enumerate(((w_full, full), (w_causal, causal)), start=1):
        for trace in heatmap_traces(
            w, m, x=ticks, y=ticks, closed_text="0", zmin=0, zmax=max(np.max(w_full), np.max(w_causal))
        ):
            fig.add_trace(trace, row=1, col=col)
        fig.add_shape(
            type="rect",
            x0=-0.5,
            x1=n - 0.5,
            y0=row - 0.5,
            y1=row + 0.5,
            line=dict(color=ACCENT, width=3),
            row=1,
            col=col,
        )
    fig.update_yaxes(autorange="reversed")
    fig.update_yaxes(showticklabels=False, col=2)
    fig.update_xaxes(tickangle=-45)
    fig = styled(fig, height=400)
    fig.update_layout(margin=dict(t=70))
    return fig


def visible_range(words, weights, *, lang=None):
    """Draw, for the chosen token, the arcs to itself and every earlier token; later tokens stay grey."""
    text = labels("decoder", lang)
    n = len(words)
    weights = np.asarray(weights)

    def traces(i):  # the visible range, the token row, the arcs to earlier tokens, the weight on itself
        yield go.Scatter(
            x=[-0.45, i + 0.45, i + 0.45, -0.45, -0.45],
            y=[-0.35, -0.35, 0.35, 0.35, -0.35],
            mode="lines",
            fill="toself",
            fillcolor="rgba(232,113,10,0.08)",
            line=dict(color=ACCENT, width=1, dash="dot"),
            hoverinfo="skip",
            showlegend=False,
        )
        yield token_trace(words, i, visible_upto=i)
        for j in range(i):
            yield arc_trace(j, i, weights[i, j], above=True, color=ACCENT)
        yield go.Scatter(
            x=[i],
            y=[-0.48],
            mode="text",
            text=[text["self"].format(w=weights[i, i])],
            hoverinfo="skip",
            showlegend=False,
            textfont=dict(color=ACCENT, size=11),
        )

    fig, steps = token_figure(
        words, traces, lambda i: {"title.text": text["sees"].format(i=i, k=int(i + 1), n=n)}, bottom=-0.65
    )
    active = n - 1
    return finish(
        fig, steps, kind="slider", prefix=text["token"], active=active, height=400, margin=dict(t=60), title_step=active
    )


def future_leak(words, changed, result, *, lang=None):
    """Draw each position's max |Δ| after one future token changes; buttons switch the mask on and off."""
    text = labels("decoder", lang)
    n = len(words)
    x = [f"{i} {a}" if a == b else f"{i} {a}→{b}" for i, (a, b) in enumerate(zip(words, changed))]
    fig = go.Figure()
    steps = []
    for k, (delta, note, label) in enumerate(
        (
            (result.delta_masked, text["note_on"].format(d=fmt_delta(result.earlier_masked)), text["on"]),
            (result.delta_unmasked, text["note_off"].format(d=fmt_delta(result.earlier_unmasked)), text["off"]),
        )
    ):
        colors = [
            MUTED if i == result.position else (ACCENT if is_rounding(delta[i]) else LEAK_COLOR) for i in range(n)
        ]
        fig.add_trace(
            go.Bar(
                x=x,
                y=list(delta),
                marker_color=colors,
                text=[fmt_delta(d) for d in delta],
                textposition="outside",
                hovertemplate="%{x}: %{y:.6g}<extra></extra>",
                showlegend=False,
            )
        )
        color = LEAK_COLOR if k else ACCENT
        steps.append(
            (
                label,
                [k],
                {
                    "annotations": [
                        dict(
                            x=0.01,
                            y=1.0,
                            xref="paper",
                            yref="paper",
                            text=note,
                            showarrow=False,
                            xanchor="left",
                            font=dict(color=color, size=14),
                        ),
                        dict(
                            x=x[result.position],
                            y=float(delta[result.position]),
                            text=text["changed"],
                            showarrow=True,
                            arrowhead=2,
                            ay=-40,
                        ),
                    ]
                },
            )
        )
    top = 1.25 * float(max(result.delta_masked.max(), result.delta_unmasked.max()))
    fig.update_yaxes(range=[0, top], title=text["delta"])
    add_control(fig, steps, kind="buttons")
    return styled(fig, height=420)


def future_leak_table(words, changed, result, *, lang=None):
    """Return a Markdown table of each position's max |Δ| with the causal mask and with a full mask."""
    text = labels("decoder_tables", lang)
    rows = []
    for i, (a, b) in enumerate(zip(words, changed)):
        rows.append(
            [
                i,
                f"`{a}`" if a == b else f"`{a}` → `{b}`",
                fmt_delta(result.delta_masked[i]),
                fmt_delta(result.delta_unmasked[i]),
            ]
        )
    rows.append(
        [
            f"0–{result.position - 1}",
            text["earlier"],
            f"**{fmt_delta(result.earlier_masked)}**",
            f"**{fmt_delta(result.earlier_unmasked)}**",
        ]
    )
    return md_table([text["pos"], text["tok"], text["on"], text["off"]], rows)


def next_token_pairs_table(inputs, targets, n_tokens, bos=None, *, lang=None):
    """Return a Markdown table of next-token exercises (input token, token to predict) and their count."""
    text = labels("decoder_tables", lang)
    rows = [[i, f"`{a}`", f"`{b}`"] for i, (a, b) in enumerate(zip(inputs, targets))]
    how = text["with_bos"].format(bos=bos) if bos is not None else text["without_bos"]
    return md_table(text["cols_pairs"], rows) + "\n\n" + text["n_pairs"].format(n=n_tokens, m=len(targets), how=how)


def same_size_table(rows, *, lang=None):
    """Return a Markdown table of published models of one size: shape, weights inside the blocks, mask."""
    text = labels("decoder_tables", lang)
    body = [
        [
            r["name"],
            text["kind"][r["machine"]],
            r["n_layers"],
            r["d_model"],
            r["n_heads"],
            r["d_ff"],
            f"{r['block_weights']:,}",
            text["mask"][r["mask"]],
            r["source"],
        ]
        for r in rows
    ]
    same = len({r["block_weights"] for r in rows}) == 1
    return md_table(text["cols_size"], body) + "\n\n" + text["same"].format(same=text["yes"] if same else text["no"])


# ---- training under broken masks

RUN_STYLE = {
    "causal": (LEFT_COLOR, "solid"),
    "no_mask": (LEAK_COLOR, "dash"),
    "added_0": (LEAK_COLOR, "dash"),
    "triu_2": ("#9467bd", "dot"),
    "masked_fill_0": (ACCENT, "dashdot"),
}
LOSS_DIGITS = 2  # losses are printed and drawn to 2 decimals: training amplifies the last bits, which differ by CPU


def fmt_loss(x):
    """Format a loss to LOSS_DIGITS decimals."""
    return f"{float(x):.{LOSS_DIGITS}f}"


def same_runs(curves):  # {run: [steps]} -> [[run, ...], ...]
    """Group the runs whose curves are identical step by step (np.array_equal), in the order given."""
    groups = []
    for name, curve in curves.items():
        for group in groups:
            if np.array_equal(curves[group[0]], curve):
                group.append(name)
                break
        else:
            groups.append([name])
    return groups


def run_label(group, text):
    """Name a group of runs that coincide: 'no mask = 0 added'."""
    return " = ".join(text["runs"][name] for name in group)


def training_curves(histories, heldout, *, lang=None):
    """Draw each run's training loss per step, one line for runs that coincide, and its honest held-out loss as a marker.

    histories: {run: [steps] training losses under its own mask}; heldout: {run: loss under the causal mask}.
    """
    text = labels("decoder", lang)
    fig = go.Figure()
    for group in same_runs(histories):
        color, dash = RUN_STYLE.get(group[0], (MUTED, "solid"))
        curve = np.round(np.asarray(histories[group[0]], dtype=float), LOSS_DIGITS)
        steps = np.arange(1, curve.size + 1)
        name = run_label(group, text)
        fig.add_trace(
            go.Scatter(
                x=steps,
                y=curve,
                mode="lines",
                name=name,
                legendgroup=name,
                line=dict(color=color, dash=dash, width=2),
                hovertemplate=text["hover_train"],
            )
        )
        fig.add_trace(
            go.Scatter(
                x=[curve.size],
                y=[round(float(heldout[group[0]]), LOSS_DIGITS)],
                mode="markers+text",
                name=text["heldout"].format(run=name),
                legendgroup=name,
                showlegend=False,
                marker=dict(color=color, size=11, symbol="diamond"),
                text=[fmt_loss(heldout[group[0]])],
                textposition="middle right",
                hovertemplate=text["hover_heldout"],
            )
        )
    fig.update_xaxes(title=text["step"])
    fig.update_yaxes(title=text["loss"], type="log")  # the runs part at a loss of about 1 and end a factor of 10 apart
    fig = styled(fig, height=440, title=text["curves_title"])
    fig.update_layout(legend=dict(orientation="h", y=-0.2), margin=dict(b=110, r=50))
    return fig


def training_runs_table(runs, scores, setup, *, lang=None):
    """Return a Markdown table: each run's mask, its training loss, its honest held-out loss and the score of its text.

    runs: {run: (train_loss, heldout_loss)}; scores: {run: (found, total)} n-grams of its text found in the corpus;
    setup: the model's shape and the training's settings, for the note under the table (keys of the label "setup").
    """
    text, names = labels("decoder_tables", lang), labels("decoder", lang)["runs"]
    rows = [
        [
            names[r],
            fmt_loss(train),
            f"**{fmt_loss(held)}**",
            f"{scores[r][0]} / {scores[r][1]} = {pct(scores[r][0] / scores[r][1], 0)}",
        ]
        for r, (train, held) in runs.items()
    ]
    setup = dict(setup, chance=fmt_loss(np.log(setup["vocab_size"])))
    return md_table(text["cols_runs"], rows) + "\n" + text["setup"].format(**setup)


def generations_table(prompts, written, *, lang=None):
    """Return a Markdown table of what each model wrote after each prompt, greedy and sampled; models that wrote the same share a row.

    written: {run: {prompt: (greedy words, sampled words)}}.
    """
    text, words = labels("decoder_tables", lang), labels("decoder", lang)
    groups = []
    for name, texts in written.items():
        for group in groups:
            if written[group[0]] == texts:
                group.append(name)
                break
        else:
            groups.append([name])
    rows = []
    for prompt in prompts:
        k = len(prompt.split())
        for group in groups:
            greedy, sampled = written[group[0]][prompt]
            rows.append([f"`{prompt}`", run_label(group, words), " ".join(greedy[k:]), " ".join(sampled[k:])])
    return md_table(text["cols_texts"], rows)


def corpus_table(grammar, data, n_possible, n_distinct, *, lang=None):
    """Return the grammar as a Markdown table and a second one with the corpus's size and split.

    data: primer.broken_masks.Data; n_possible: sentences the grammar can make; n_distinct: distinct ones in the training text.
    """
    text = labels("decoder_tables", lang)
    rules = [[f"`{symbol}`", " &#124; ".join(" ".join(alt) for alt in alts)] for symbol, alts in grammar.items()]
    rows, n = data.tokens.shape
    sizes = [
        [text["train"], data.n_sentences, len(data.words), f"{rows} × {n}"],
        [text["heldout"], data.n_heldout_sentences, len(data.heldout_words), f"{len(data.heldout_tokens)} × {n}"],
    ]
    return (
        md_table(text["cols_grammar"], rules)
        + "\n"
        + md_table(text["cols_corpus"], sizes)
        + "\n"
        + text["corpus_note"].format(v=len(data.vocab), possible=n_possible, distinct=n_distinct)
    )

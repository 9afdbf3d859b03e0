"""Figures of the chapter "Decoder-only": one row causal vs bidirectional, the growing visible range, the leak."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures._tokens import arc_trace, token_figure, token_trace
from primer.figures.controls import add_control, annotated_step, finish
from primer.figures.look import ACCENT, LEFT_COLOR, MUTED, heatmap_traces, note, row_box, styled, tick_labels
from primer.figures.tables import cite, integer, md_table, pct
from primer.language import labels, page_lang
from primer.rounding import is_rounding

LEAK_COLOR = "#d62728"


def fmt_delta(x):
    """Format a |Δ|: rounding (below primer.rounding.BOUND, 0 in exact arithmetic) prints as 0.0, else four decimals."""
    x = float(x)
    return "0.0" if is_rounding(x) else f"{x:.4f}"


def same_row(words, w_full, w_causal, row, n_heads, *, lang=None):
    """Draw the same query row under a full mask and under a causal mask, side by side (mean of n_heads heads)."""
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
        fig.add_shape(row_box(row, n), row=1, col=col)
    fig.update_yaxes(autorange="reversed")
    fig.update_yaxes(showticklabels=False, col=2)
    fig.update_xaxes(tickangle=-45)
    fig = styled(fig, height=400, title=text["mean_heads"].format(h=n_heads))
    fig.update_layout(margin=dict(t=90))
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
            # at either end it reads inwards: centred, it would run past the plot's edge on a phone
            textposition="middle right" if i == 0 else "middle left" if i == n - 1 else "middle center",
            hoverinfo="skip",
            showlegend=False,
            textfont=dict(color=ACCENT, size=11),
        )

    fig, steps = token_figure(
        words, traces, lambda i: {"title.text": text["sees"].format(i=i, k=int(i + 1), n=n)}, bottom=-0.65
    )
    return finish(
        fig, steps, kind="slider", prefix=text["token"], active=0, height=400, margin=dict(t=60), title_step=0
    )


def future_leak(words, changed, result, *, lang=None):
    """Draw each position's max |Δ| after one future token changes; buttons switch the mask on and off."""
    text = labels("decoder", lang)
    n = len(words)
    x = [f"{i} {a}" if a == b else f"{i} {a}→{b}" for i, (a, b) in enumerate(zip(words, changed))]
    fig = go.Figure()
    steps = []
    for k, (delta, caption, label) in enumerate(
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
        changed_at = dict(
            x=x[result.position],
            y=float(delta[result.position]),
            text=text["changed"],
            showarrow=True,
            arrowhead=2,
            ay=-46,
            standoff=20,  # the arrow stops above the bar's value label instead of crossing it
        )
        steps.append(
            annotated_step(
                label, [k], note(caption, 0.01, 1.0, xanchor="left", font=dict(color=color, size=14)), changed_at
            )
        )
    # room above the tallest bar for its value, the arrow and its label, under the note (two lines on a phone)
    top = 1.7 * float(max(result.delta_masked.max(), result.delta_unmasked.max()))
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
            integer(r["block_weights"], lang),
            text["mask"][r["mask"]],
            cite(r["source"], text["released"], text["table"]),
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
    "inverted": ("#8c564b", "longdash"),
}
REFERENCE_STYLE = {"train_floor": ("#2ca02c", "dot"), "floor": ("#2ca02c", "dot"), "chance": (MUTED, "dot")}
# Chapter 7's playground, all the in-page runner knows of it (hooks/runner.py writes it into data attributes): the
# figure's div id; the uids of the reader's two traces, train (top) and held-out (bottom); the printed line that is
# one point of each (step, train loss, held-out loss: the program's print); the program's line that names the mask a
# run trains with (a kept run's label); and the values drawn (the loss axis is logarithmic).
PLAYGROUND = {
    "figure": "fig-playground",
    "traces": {"train": "reader-train", "heldout": "reader-heldout"},
    "point": r"^\s*(\d+)\s+(\S+)\s+(\S+)\s*$",
    "mask": r"^mask\s*=\s*(.+?)\s*(?:#.*)?$",
    "bounds": {"step": [0, 1e6], "loss": [1e-4, 1e4]},
}
PLAYGROUND_UIDS = PLAYGROUND["traces"]  # the figure's reader traces, by role
LOSS_TICKS = (0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10)
LOSS_DIGITS = 2  # losses are printed and drawn to 2 decimals: training amplifies the last bits, which differ by CPU


def fmt_loss(x):
    """Format a loss to LOSS_DIGITS decimals."""
    return f"{float(x):.{LOSS_DIGITS}f}"


def fmt_std(x):
    """Format a standard deviation to one decimal."""
    return f"{float(x):.1f}"


def spread(values, fmt=fmt_loss):  # [seeds] -> "median (min–max)"
    """Format values measured once per seed as their median and, in brackets, their range (alone if it prints one)."""
    values = np.asarray(values, dtype=float)
    low, high = fmt(values.min()), fmt(values.max())
    if low == high:  # one seed, or every seed prints the same: "25%", not "25% (25%–25%)"
        return low
    return f"{fmt(np.median(values))} ({low}–{high})"


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


def training_curves(histories, curves, curve_steps, train_floor, floor, chance, *, lang=None):
    """Draw each run's training loss per step (top) and its held-out loss, causal mask, every few steps (bottom).

    histories: {run: [steps] training losses under its own mask}; curves: {run: [k] held-out losses under the causal
    mask at curve_steps}; train_floor: the training text's own floor (top); floor: the grammar's exact conditional
    entropy (bottom); chance: ln V. Runs that coincide share a line.
    """
    text = labels("decoder", lang)
    every = int(curve_steps[1] - curve_steps[0])
    styles = {
        group[0]: (run_label(group, text), *RUN_STYLE.get(group[0], (MUTED, "solid"))) for group in same_runs(histories)
    }
    return loss_panels(
        histories,
        curves,
        curve_steps,
        (train_floor, floor),
        chance,
        styles,
        text["panel_honest"].format(every=every),
        text,
    )


def playground(history, curve, curve_steps, train_floor, floor, chance, *, lang=None):
    """Draw the page's causal run as training_curves does, and two empty traces for the reader's own run.

    The reader's run fills the traces whose uid is PLAYGROUND_UIDS["train"] (top) and ["heldout"] (bottom) while it
    trains in the page (docs/assets/runner/runner.js); history, curve and curve_steps are the page's causal run.
    """
    text = labels("decoder", lang)
    page_run = text["playground_page"].format(run=text["runs"]["causal"])
    fig = loss_panels(
        {"causal": stretch_means(history, curve_steps)},
        {"causal": curve},
        curve_steps,
        (train_floor, floor),
        chance,
        {"causal": (page_run, MUTED, "solid")},
        text["panel_playground"],
        text,
        train_steps=curve_steps[1:],
    )
    for row, key, hover in ((1, "train", "hover_train_mean"), (2, "heldout", "hover_heldout")):
        fig.add_trace(
            go.Scatter(
                x=[],
                y=[],
                mode="lines+markers",
                name=text["playground_yours"],
                legendgroup="yours",
                showlegend=row == 1,
                uid=PLAYGROUND_UIDS[key],
                line=dict(color=ACCENT, width=2.5),
                marker=dict(size=6),
                hovertemplate=text[hover],
            ),
            row=row,
            col=1,
        )
    return fig


def stretch_means(history, curve_steps):  # [steps], [k + 1] from 0 -> [k]
    """Return the mean training loss of each stretch of steps that ends at one of curve_steps (after the first)."""
    history, ends = np.asarray(history, dtype=float), np.asarray(curve_steps, dtype=int)
    if ends.size < 2 or np.any(np.diff(ends) <= 0) or ends[-1] > history.size:
        raise ValueError("curve_steps must rise and end within history's steps")
    return np.array([history[a:b].mean() for a, b in zip(ends[:-1], ends[1:])])


def loss_panels(histories, curves, curve_steps, floors, chance, styles, honest_title, text, *, train_steps=None):
    """Draw training losses per step (top) and held-out losses under the causal mask (bottom), with floors and chance.

    floors: (the training text's own floor, drawn on top; the grammar's, drawn below), each panel's rows' own.
    styles: {run: (legend name, colour, dash)}, one per line drawn; a run missing from styles shares another's line.
    train_steps: the steps the histories' values belong to (drawn with markers); None: one value a step from step 1.
    """
    train_title, train_hover = text["panel_train"], text["hover_train"]
    if train_steps is not None:
        train_title, train_hover = (
            text["panel_train_mean"].format(every=curve_steps[1] - curve_steps[0]),
            text["hover_train_mean"],
        )
    fig = make_subplots(
        rows=2, cols=1, shared_xaxes=True, vertical_spacing=0.14, subplot_titles=(train_title, honest_title)
    )
    for run, (name, color, dash) in styles.items():
        curve = np.round(np.asarray(histories[run], dtype=float), LOSS_DIGITS)
        line = dict(color=color, dash=dash, width=2)
        fig.add_trace(
            go.Scatter(
                x=np.arange(1, curve.size + 1) if train_steps is None else np.asarray(train_steps),
                y=curve,
                mode="lines" if train_steps is None else "lines+markers",
                marker=dict(size=5),
                name=name,
                legendgroup=name,
                line=line,
                hovertemplate=train_hover,
            ),
            row=1,
            col=1,
        )
        fig.add_trace(
            go.Scatter(
                x=np.asarray(curve_steps),
                y=np.round(np.asarray(curves[run], dtype=float), LOSS_DIGITS),
                mode="lines+markers",
                name=name,
                legendgroup=name,
                showlegend=False,
                line=line,
                marker=dict(size=5),
                hovertemplate=text["hover_heldout"],
            ),
            row=2,
            col=1,
        )
    last = max(len(h) for h in histories.values()) if train_steps is None else int(train_steps[-1])
    train_floor, floor = floors
    for key, value, rows in (("train_floor", train_floor, (1,)), ("floor", floor, (2,)), ("chance", chance, (1, 2))):
        color, dash = REFERENCE_STYLE[key]
        name = text[key].format(v=fmt_loss(value))
        for row in rows:
            fig.add_trace(
                go.Scatter(
                    x=[0, last],
                    y=[round(float(value), LOSS_DIGITS)] * 2,
                    mode="lines",
                    name=name,
                    legendgroup=key,
                    showlegend=row == rows[0],
                    line=dict(color=color, dash=dash, width=1.5),
                    hovertemplate="%{fullData.name}<extra></extra>",  # the legend's name, not written twice
                ),
                row=row,
                col=1,
            )
    fig.update_xaxes(title=text["step"], row=2, col=1)
    # losses run from about 10 to below 0.1; named ticks, since plotly's 1-2-5 ticks label 0.5 as a bare "5"
    fig.update_yaxes(title=text["loss"], type="log", tickvals=LOSS_TICKS)
    fig = styled(fig, height=660)
    fig.update_layout(legend=dict(orientation="h", y=-0.14, yanchor="top"), margin=dict(t=80, b=150, r=20))
    return fig


def training_runs_table(measured, references, setup, *, lang=None):
    """Return a Markdown table: per run, median and range over seeds of its three losses and of its text's score.

    measured: {run: {"train", "val", "honest", "start": [seeds] losses, "score": [seeds] (found, total)}};
    references: {"floor", "chance", "train_floor": [seeds] the training text's own floor, "grammar": [seeds] the
    grammar's own held-out loss, "start_std": [seeds] the initial logits' standard deviation}; setup: the model's
    shape, the training's settings, vocab_size, n_seeds, seed and n_samples, for the note under the table.
    """
    text, names = labels("decoder_tables", lang), labels("decoder", lang)["runs"]

    def share(pairs):
        return spread([f / t for f, t in pairs], lambda x: pct(x, 0))

    rows = [
        [names[r], spread(m["train"]), spread(m["val"]), f"**{spread(m['honest'])}**", share(m["score"])]
        for r, m in measured.items()
    ]
    rows.append([text["grammar_row"], "—", spread(references["grammar"]), spread(references["grammar"]), "—"])
    note = ("" if page_lang(lang) == "zh" else " ").join(  # no space after a Chinese full stop
        (
            text["setup"].format(**setup),
            text["references"].format(
                floor=fmt_loss(references["floor"]),
                train_floor=spread(references["train_floor"]),
                chance=fmt_loss(references["chance"]),
                v=setup["vocab_size"],
                n_samples=setup["n_samples"],
            ),
            text["start"].format(
                start=spread(measured[next(iter(measured))]["start"]), std=spread(references["start_std"], fmt_std)
            ),
        )
    )
    return md_table(text["cols_runs"], rows) + "\n" + note


def choice_table(measured, grammar_p, *, lang=None):
    """Return a Markdown table: per run, the mean probability of the true next word where the grammar leaves a choice.

    measured: {run: ([seeds] under its own mask, [seeds] under the causal mask)}; grammar_p: [seeds] the grammar's own.
    """
    text, names = labels("decoder_tables", lang), labels("decoder", lang)["runs"]
    rows = [[names[r], spread(own), spread(causal)] for r, (own, causal) in measured.items()]
    rows.append([text["grammar_row"], spread(grammar_p), spread(grammar_p)])
    return md_table(text["cols_choice"], rows)


def generations_table(prompts, written, *, lang=None):
    """Return a Markdown table of what each model wrote after each prompt, greedy and first sampled.

    Models that wrote the same share a row.

    written: {run: {prompt: [greedy words, sampled words, ...]}}.
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
            greedy, sampled = written[group[0]][prompt][:2]
            rows.append([f"`{prompt}`", run_label(group, words), " ".join(greedy[k:]), " ".join(sampled[k:])])
    return md_table(text["cols_texts"], rows)


def corpus_table(grammar, data, *, lang=None):
    """Return the grammar as a Markdown table and a second one with the corpus's split and size.

    data: primer.experiments.language_model.Data.
    """
    text = labels("decoder_tables", lang)
    rules = [[f"`{symbol}`", " &#124; ".join(" ".join(alt) for alt in alts)] for symbol, alts in grammar.items()]
    rows, n = data.tokens.shape
    sizes = [
        [text["train"], len(data.train_part), data.n_sentences, len(data.words), f"{rows} × {n}"],
        [
            text["heldout"],
            len(data.heldout_part),
            data.n_heldout_sentences,
            len(data.heldout_words),
            f"{len(data.heldout_tokens)} × {n}",
        ],
    ]
    return (
        md_table(text["cols_grammar"], rules)
        + "\n"
        + md_table(text["cols_corpus"], sizes)
        + "\n"
        + text["corpus_note"].format(
            v=len(data.vocab),
            possible=data.n_possible,
            held=len(data.heldout_part),
            kept=len(data.train_part),
            overlap=data.overlap,
            floor=fmt_loss(data.floor),
            train_floor=fmt_loss(data.train_floor),
            chance=fmt_loss(data.chance),
        )
    )

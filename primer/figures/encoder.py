"""Figures of the chapter "Encoder-only": arcs in both directions, the always-open grid, masked LM."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures._tokens import arc_top, arc_trace, token_figure, token_trace
from primer.figures.controls import add_control, finish
from primer.figures.look import ACCENT, LEFT_COLOR, MUTED, RIGHT_COLOR, heatmap_traces, on_phone, styled
from primer.figures.tables import md_table, pct
from primer.language import labels


def both_directions(words, weights, *, lang=None):
    """Draw each token's arcs to every other token: above, what it reads; below, who reads it; a slider picks it."""
    text = labels("encoder", lang)
    n = len(words)
    weights = np.asarray(weights)

    def traces(i):  # the token row, then each other token's arcs: above, i reads j; below, j reads i
        yield token_trace(words, i)
        for j in range(n):
            if j != i:
                yield arc_trace(i, j, weights[i, j], above=True, color=ACCENT)
                yield arc_trace(j, i, weights[j, i], above=False, color=LEFT_COLOR)

    fig, steps = token_figure(words, traces)
    top = arc_top(n)
    fig.add_annotation(
        x=-0.55, y=top - 0.1, text=text["reads"], showarrow=False, xanchor="left", font=dict(color=ACCENT)
    )
    fig.add_annotation(
        x=-0.55, y=-top + 0.1, text=text["read_by"], showarrow=False, xanchor="left", font=dict(color=LEFT_COLOR)
    )
    add_control(fig, steps, kind="slider", prefix=text["token"], active=2 if n > 2 else 0)
    return styled(fig, height=460)


def full_masks(ns, masks, *, lang=None):
    """Draw the n×n mask for each n; a slider changes n and every cell stays open."""
    text = labels("encoder", lang)
    fig = go.Figure()
    steps = []
    for n, mask in zip(ns, masks):
        mask = np.asarray(mask)
        start = len(fig.data)
        for trace in heatmap_traces(
            mask.astype(float),
            mask,
            x=list(range(n)),
            y=list(range(n)),
            fmt="✓",
            colorscale=[[0, "#6baed6"], [1, "#6baed6"]],
            zmin=0,
            zmax=1,
        ):
            fig.add_trace(trace)
        title = text["open"].format(n=n, k=int(mask.sum()), t=mask.size)
        steps.append(
            (
                n,
                [start, start + 1],
                {"xaxis.range": [-0.5, n - 0.5], "yaxis.range": [n - 0.5, -0.5], "title.text": title},
            )
        )
    fig.update_layout(title=dict(text="", x=0.01))
    fig.update_xaxes(title=text["k"], dtick=1, constrain="domain")
    fig.update_yaxes(title=text["q"], dtick=1, scaleanchor="x")
    active = min(4, len(ns) - 1)
    return finish(
        fig, steps, kind="slider", prefix=text["n"], active=active, height=520, margin=dict(t=60), title_step=active
    )


def mlm_walk(words, position, steps, vocab, *, top=6, lang=None):
    """Draw the [MASK] position step by step: what it reads (arcs) and what the trained encoder guesses (bars)."""
    text = labels("encoder", lang)
    n = len(words)
    fig = make_subplots(rows=2, cols=1, row_heights=[0.45, 0.55], vertical_spacing=0.12)
    shown = ["[MASK]" if j == position else w for j, w in enumerate(words)]
    both = steps[-1]["probs"]
    cand = [int(k) for k in np.argsort(-both, kind="stable")[:top]]
    left_best = int(np.argmax(steps[0]["probs"]))
    if left_best not in cand:
        cand[-1] = left_best
    cand_words = [vocab[k] for k in cand]
    specs = []
    for s in steps:
        start = len(fig.data)
        fig.add_trace(token_trace(shown, position, filled=s["filled"], y=0.0), row=1, col=1)
        for j in s["reads"]:
            color = LEFT_COLOR if j < position else RIGHT_COLOR
            fig.add_trace(
                arc_trace(min(j, position), max(j, position), 0.25, above=True, color=color, text=False), row=1, col=1
            )
        if s["left_probs"] is not None and s["filled"] is None:
            fig.add_trace(
                go.Bar(
                    x=cand_words,
                    y=[s["left_probs"][k] for k in cand],
                    name=text["left"],
                    marker_color=MUTED,
                    text=[pct(s["left_probs"][k]) for k in cand],
                    textposition="outside",
                ),
                row=2,
                col=1,
            )
        name = text["left"] if s["step"] == 0 else text["both"]
        colors = [
            ACCENT if (s["filled"] and vocab[k] == s["filled"]) else (LEFT_COLOR if s["step"] == 0 else RIGHT_COLOR)
            for k in cand
        ]
        fig.add_trace(
            go.Bar(
                x=cand_words,
                y=[s["probs"][k] for k in cand],
                name=name,
                marker_color=colors,
                text=[pct(s["probs"][k]) for k in cand],
                textposition="outside",
            ),
            row=2,
            col=1,
        )
        left_words = " ".join(f"“{words[j]}”" for j in s["reads"] if j < position)
        right_words = " ".join(f"“{words[j]}”" for j in s["reads"] if j > position)
        title = [
            text["step0"].format(l=left_words),
            text["step1"].format(l=left_words, r=right_words),
            text["step2"].format(w=s["filled"]),
        ][s["step"]]
        specs.append((text["step"].format(s=s["step"]), list(range(start, len(fig.data))), {"title.text": title}))
    fig.update_xaxes(visible=False, range=[-0.6, n - 0.4], row=1, col=1)
    fig.update_yaxes(visible=False, range=[-0.5, arc_top(n, pad=0.2)], row=1, col=1)
    fig.update_yaxes(range=[0, 1.12], tickformat=".0%", title=text["prob"], row=2, col=1)
    fig.update_layout(barmode="group", legend=dict(orientation="h", y=0.5, x=1, xanchor="right"))
    finish(fig, specs, kind="slider", prefix=text["step_prefix"], height=560, margin=dict(t=60), title_step=0)
    # on a phone the token row is narrow: smaller words
    return on_phone(fig, style={"textfont.size": 11})


def mlm_masking_table(rows, n_tokens, rate, *, lang=None):
    """Return a Markdown table of the positions BERT's rule picked, and a line with the rate achieved."""
    text = labels("encoder_tables", lang)
    body = [[i, f"`{w}`", text[action], f"`{shown}`"] for i, w, action, shown in rows]
    line = text["summary"].format(n=n_tokens, k=len(rows), r=pct(len(rows) / n_tokens), target=pct(rate, 0))
    return md_table([text["pos"], text["tok"], text["action"], text["shown"]], body) + "\n" + line + "\n"


def mlm_guesses_table(guesses, *, lang=None):
    """Return a Markdown table: for each guesser ('grammar_left', 'encoder_both', ...), its top guesses ('—': none).

    top: (word, probability) pairs, most likely first. Every guess tied with the first is bold, so a tie shows as one.
    """
    text = labels("encoder_tables", lang)
    k = max(len(top) for top in guesses.values())
    head = [text["source"]] + [text["guess"].format(i=i + 1) for i in range(k)]
    body = []
    for who, top in guesses.items():
        best = max(p for _, p in top)
        cells = [f"**{w} ({pct(p)})**" if p > best - 1e-12 else f"{w} ({pct(p)})" for w, p in top]
        body.append([text[who]] + cells + ["—"] * (k - len(top)))
    return md_table(head, body) + "\n" + text["guess_note"] + "\n"


ALL_THEN_DECIDED = (lambda r: None, lambda r: r.decided)  # the table's two columns


def encoder_accuracy_table(runs, setup, *, lang=None):
    """Return a Markdown table: over the seeds, how often the encoder and the grammar guess a hidden held-out word.

    runs: primer.experiments.trained_encoder.EncoderRun, one per seed; setup: the training's settings, for the note.
    """
    from primer.figures.decoder import spread  # median (min–max) over the seeds, as chapter 7's tables

    text = labels("encoder_tables", lang)

    def cell(who, sides, bold=False):  # over every hidden word, then over those only the right side decides
        out = [spread([r.accuracy(who, sides, w(r)) for r in runs], lambda x: pct(x, 0)) for w in ALL_THEN_DECIDED]
        return [f"**{c}**" for c in out] if bold else out

    rows = [
        [text["acc_encoder_both"], *cell("encoder", "both", bold=True)],
        [text["acc_encoder_left"], *cell("encoder", "left")],
        [text["acc_grammar_left"], *cell("grammar", "left")],
        [text["acc_grammar_both"], *cell("grammar", "both")],
    ]
    hidden = sorted({len(r.hidden) for r in runs})
    decided = sorted({int(r.decided.sum()) for r in runs})
    note = text["acc_setup"].format(
        **setup,
        n_seeds=len(runs),
        hidden="–".join(map(str, (hidden[0], hidden[-1]) if len(hidden) > 1 else hidden)),
        decided="–".join(map(str, (decided[0], decided[-1]) if len(decided) > 1 else decided)),
        overlap=sum(r.data.overlap for r in runs),
    )
    return md_table([text["acc_who"], text["acc_all"], text["acc_decided"]], rows) + "\n" + note + "\n"

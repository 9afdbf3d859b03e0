"""Figures of the chapter "Packing": the leak across documents of a packed row, and the packed-training table."""

import numpy as np
import plotly.graph_objects as go

from primer.figures.controls import add_control, annotated_step
from primer.figures.decoder import LEAK_COLOR, fmt_delta, fmt_loss, spread
from primer.figures.look import ACCENT, MUTED, note, styled
from primer.figures.tables import md_table, minus
from primer.language import labels
from primer.rounding import is_rounding


def document_leak(words, doc_ids, position, new_word, moved, *, lang=None):
    """Draw each position's max |Δ logit| after one word changes; buttons switch the causal and document masks."""
    text = labels("packing", lang)
    doc_ids = np.asarray(doc_ids)
    x = [f"{i} {w}→{new_word}" if i == position else f"{i} {w}" for i, w in enumerate(words)]
    outside = doc_ids != doc_ids[position]
    fig, steps = go.Figure(), []
    for k, (name, label) in enumerate((("causal", "on_causal"), ("document", "on_document"))):
        delta = np.asarray(moved[name], dtype=float)
        leaked = outside & ~np.array([is_rounding(d) for d in delta])
        colors = [MUTED if i == position else (LEAK_COLOR if leaked[i] else ACCENT) for i in range(len(words))]
        fig.add_trace(
            go.Bar(
                x=x,
                y=delta.tolist(),
                marker_color=colors,
                text=[fmt_delta(d) for d in delta],
                textposition="outside",
                hovertemplate="%{x}: %{y:.6g}<extra></extra>",
                showlegend=False,
            )
        )
        largest = fmt_delta(delta[outside].max())
        caption = (
            text["note_moved"].format(k=int(leaked.sum()), d=largest)
            if leaked.any()
            else text["note_still"].format(d=largest)
        )
        color = LEAK_COLOR if leaked.any() else ACCENT
        steps.append(annotated_step(text[label], [k], note(caption, 0.01, 1.0, xanchor="left", font=dict(color=color))))
    for d in np.unique(doc_ids):  # a label over each document's span
        cols = np.flatnonzero(doc_ids == d)
        fig.add_vrect(x0=cols[0] - 0.5, x1=cols[-1] + 0.5, line_width=0, fillcolor=MUTED, opacity=0.08 * (1 + d % 2))
    top = 1.3 * max(float(np.max(v)) for v in moved.values())
    fig.update_yaxes(range=[0, top], title=text["delta"])
    fig.update_xaxes(tickangle=-45)
    add_control(fig, steps, kind="buttons")
    return styled(fig, height=440)


def packed_runs_table(runs, first, *, lang=None):
    """Return a Markdown table of each seed's held-out losses under the document mask, for the two training masks."""
    text = labels("packing", lang)
    n_first = runs[0].n_first
    rows = [
        [
            r.seed,
            fmt_loss(r.first_causal),
            fmt_loss(r.first_document),
            minus(f"{r.first_causal - r.first_document:+.3f}"),
        ]
        for r in runs
    ]
    headers = [text["col_seed"], text["col_causal"], text["col_document"], text["col_gap"]]
    return text["row_first"].format(k=first, n=n_first) + "\n\n" + md_table(headers, rows)


def packed_spread_table(runs, first, *, lang=None):
    """Return a Markdown table of the median and range over seeds, on the first tokens and on every target."""
    text = labels("packing", lang)
    rows = []
    for label, causal, document in (
        (text["row_first"].format(k=first, n=runs[0].n_first), "first_causal", "first_document"),
        (text["row_all"], "all_causal", "all_document"),
    ):
        c = np.array([getattr(r, causal) for r in runs])
        d = np.array([getattr(r, document) for r in runs])
        rows.append([label, spread(c), spread(d), minus(spread(c - d, fmt=lambda v: f"{v:.3f}"))])
    headers = [text["col_measure"], text["col_causal"], text["col_document"], text["col_gap"]]
    return f"{text['col_spread'].format(s=len(runs))}\n\n" + md_table(headers, rows)


def fmt_cell(value):
    """Format one argument or mask row compactly: bools as T/F, -inf as −∞, a dtype's lowest value in e-notation."""
    value = np.asarray(value)
    if value.dtype == bool:
        return " ".join("T" if v else "F" for v in value)
    if value.dtype.kind in "iu":
        return "[" + ", ".join(str(int(v)) for v in value) + "]"
    return minus(" ".join("−∞" if np.isneginf(v) else ("0" if v == 0 else f"{v:.1e}") for v in value.tolist()))


def forms_table(doc_ids, query, forms, *, lang=None):
    """Return a Markdown table: each library's spelling of one document mask, and whether it translates back."""
    text = labels("packing", lang)
    rows = [
        [text["forms"][name], text["means"][name], f"`{fmt_cell(value)}`", text["yes"] if back else text["no"]]
        for name, value, back in forms
    ]
    caption = text["forms_caption"].format(ids=list(map(int, doc_ids)), q=query)
    headers = [text["col_form"], text["col_means"], text["col_value"], text["col_back"]]
    return caption + "\n\n" + md_table(headers, rows)

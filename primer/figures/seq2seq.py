"""Figures of the chapter "Seq2Seq and the first attention": Bahdanau alignment heatmaps."""

import numpy as np
import plotly.graph_objects as go

from primer.figures.controls import finish
from primer.figures.look import OPEN_SCALE
from primer.figures.tables import md_table, pct
from primer.language import labels


def alignment_heatmaps(examples, *, active=0, lang=None):
    """Draw one alignment heatmap per example (label, source words, target words, weights); a dropdown picks it."""
    text = labels("seq2seq", lang)
    fig = go.Figure()
    steps = []
    for k, (label, source, target, weights) in enumerate(examples):
        weights = np.asarray(weights, dtype=float)
        words = [[f"{tw} → {sw}" for sw in source] for tw in target]
        fig.add_trace(
            go.Heatmap(
                z=weights.tolist(),
                x=list(range(len(source))),
                y=list(range(len(target))),
                text=[[f"{v:.2f}" for v in row] for row in weights],
                texttemplate="%{text}",
                customdata=words,
                colorscale=OPEN_SCALE,
                zmin=0,
                zmax=1,
                xgap=2,
                ygap=2,
                showscale=True,
                colorbar=dict(title=dict(text=text["weight"], side="right"), thickness=12),
                hovertemplate="%{customdata}: %{z:.3f}<extra></extra>",
            )
        )
        axes = {
            "xaxis.tickvals": list(range(len(source))),
            "xaxis.ticktext": list(source),
            "yaxis.tickvals": list(range(len(target))),
            "yaxis.ticktext": list(target),
            "xaxis.range": [-0.5, len(source) - 0.5],
            "yaxis.range": [len(target) - 0.5, -0.5],
        }
        steps.append((text["example"] + label, [k], axes))
    fig.update_xaxes(title=text["src"], tickfont=dict(size=14))
    fig.update_yaxes(title=text["tgt"], tickfont=dict(size=14))
    return finish(fig, steps, kind="dropdown", active=active, y=1.04, height=500, margin=dict(l=90, r=20, t=70, b=60))


def _escape(word):
    return word.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def alignment_table(source, target, weights, *, lang=None):
    """Return a Markdown table: each target word, the source word it weights most, and that weight."""
    text = labels("seq2seq", lang)
    weights = np.asarray(weights, dtype=float)
    rows = []
    for i, word in enumerate(target):
        j = int(np.argmax(weights[i]))
        rows.append([_escape(word), _escape(source[j]), pct(weights[i, j])])
    return md_table([text["target"], text["best"], text["share"]], rows)

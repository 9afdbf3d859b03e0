"""Chapter 17's figures and tables: a chunk's two causal alignments, a draft tree's mask, and pages against
contiguous preallocation."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures.controls import finish
from primer.figures.look import ACCENT, CLOSED_COLOR, MUTED, note
from primer.figures.tables import fmt_change, md_table, pct
from primer.language import labels

OPEN_COLOR = "#3182bd"
CELLS = [[0, CLOSED_COLOR], [0.5, CLOSED_COLOR], [0.5, OPEN_COLOR], [1, OPEN_COLOR]]  # 0 closed, 1 open


def _cells(z, x, y, *, hover, xaxis="x", yaxis="y", visible=True):
    """Return a heatmap of a mask's cells: open blue, closed grey, NaN (no such query or key yet) left blank."""
    return go.Heatmap(
        z=z.tolist(),
        x=x,
        y=y,
        zmin=0,
        zmax=1,
        colorscale=CELLS,
        showscale=False,
        xgap=2,
        ygap=2,
        xaxis=xaxis,
        yaxis=yaxis,
        visible=visible,
        hovertemplate=hover,
    )


def chunk_masks(masks, n, *, lang=None):
    """Draw each chunk's causal mask aligned bottom-right and top-left on an n x n grid; a slider steps the chunks.

    masks: one (start, bottom_right [c, end], top_left [c, end]) per chunk; rows start .. start + c - 1 are its
    queries, columns 0 .. end - 1 the keys the cache holds once its keys are appended.
    """
    text = labels("serving", lang)
    fig = make_subplots(rows=1, cols=2, subplot_titles=(text["bottom_right"], text["top_left"]), horizontal_spacing=0.1)
    titles = [a.to_plotly_json() for a in fig.layout.annotations]
    hover = text["cell_hover"] + "<extra></extra>"
    axis = list(range(n))
    steps = []
    for k, (start, right, left) in enumerate(masks):
        c, end = right.shape
        for col, mask in ((1, right), (2, left)):
            z = np.full((n, n), np.nan)
            z[start : start + c, :end] = mask
            fig.add_trace(_cells(z, axis, axis, hover=hover), row=1, col=col)
        differ = int((right != left).sum())
        words = text["chunk_note"].format(k=k + 1, a=start, b=start + c - 1, end=end - 1, d=differ)
        # high enough above the panel titles for them to take a second line at a phone's width
        notes = titles + [note(words, 0, 1.2, font=dict(color=ACCENT), xanchor="left", yanchor="bottom")]
        steps.append((k + 1, [2 * k, 2 * k + 1], {"annotations": notes}))
    for col in (1, 2):
        fig.update_xaxes(title=text["key"], dtick=1, range=[-0.5, n - 0.5], row=1, col=col)
        fig.update_yaxes(title=text["query"], dtick=1, autorange="reversed", row=1, col=col)
    return finish(fig, steps, kind="slider", prefix=text["chunk"], height=560, margin=dict(t=120, b=110))


def alignment_table(rows, *, lang=None):
    """Return per chunk size the largest error against one-shot prefill per alignment, and the rows top-left moves."""
    text = labels("serving", lang)
    head = [text["col_chunk"], text["col_bottom_right"], text["col_top_left"], text["col_rows_moved"]]
    body = [[c, fmt_change(right), fmt_change(left), f"{moved} / {n}"] for c, right, left, moved, n in rows]
    return md_table(head, body)


def tree_masks(trees, *, lang=None):
    """Draw one verification pass's mask for each draft tree, buttons switching trees.

    trees: one (branching, words [p + m], mask [p + m, p + m], n_prefix) per tree; words label rows and columns.
    """
    text = labels("serving", lang)
    fig = go.Figure()
    hover = text["cell_hover_word"] + "<extra></extra>"
    steps = []
    for t, (branching, words, mask, p) in enumerate(trees):
        size = len(words)
        ticks = [f"{i} {w}" for i, w in enumerate(words)]
        z = mask.astype(float)
        trace = _cells(z, list(range(size)), list(range(size)), hover=hover)
        trace.customdata = [[[words[i], words[j]] for j in range(size)] for i in range(size)]
        fig.add_trace(trace)
        layout = {
            "xaxis.tickvals": list(range(size)),
            "xaxis.ticktext": ticks,
            "xaxis.range": [-0.5, size - 0.5],
            "yaxis.tickvals": list(range(size)),
            "yaxis.ticktext": ticks,
            "yaxis.range": [size - 0.5, -0.5],
            "shapes": [
                dict(
                    type="rect", x0=p - 0.5, x1=size - 0.5, y0=p - 0.5, y1=size - 0.5, line=dict(color=ACCENT, width=3)
                )
            ],
        }
        label = text["tree_button"].format(b=" × ".join(str(w) for w in branching))
        steps.append((label, [t], layout))
    fig.update_xaxes(title=text["key"], tickangle=-45)
    fig.update_yaxes(title=text["query"])
    return finish(fig, steps, kind="buttons", height=600, margin=dict(t=90, b=110))


def tree_check_table(rows, *, lang=None):
    """Return per draft node: its parent, token, branch and max |one-pass logits - its branch run alone|."""
    text = labels("serving", lang)
    head = [text["col_node"], text["col_parent"], text["col_token"], text["col_branch"], text["col_diff"]]
    body = [
        [node, text["root"] if parent == -1 else parent, token, " ".join(branch), fmt_change(diff)]
        for node, parent, token, branch, diff in rows
    ]
    return md_table(head, body)


def acceptance_table(rows, n_tokens, *, lang=None):
    """Return per draft shape: nodes per pass, passes, tokens per pass, and whether the text is plain greedy's."""
    text = labels("serving", lang)
    head = [text["col_draft"], text["col_nodes"], text["col_passes"], text["col_per_pass"], text["col_same"]]
    body = [[text["plain"], 0, n_tokens, "1.00", text["yes"]]]
    for branching, nodes, passes, same in rows:
        shape = " × ".join(str(w) for w in branching)
        body.append([shape, nodes, passes, f"{n_tokens / passes:.2f}", text["yes"] if same else text["no"]])
    return md_table(head, body)


def paged_table(rows, *, lang=None):
    """Return per sequence: its length, its block table, and whether its pages and its attention equal the contiguous
    cache's."""
    text = labels("serving", lang)
    head = [text["col_seq"], text["col_length"], text["col_block_table"], text["col_rows_equal"], text["col_out_equal"]]
    yes_no = {True: text["identical"], False: text["differs"]}
    body = [[s, n, str(table), yes_no[rows_eq], yes_no[out_eq]] for s, n, table, rows_eq, out_eq in rows]
    return md_table(head, body)


def waste_table(rows, used, *, lang=None):
    """Return per page size the rows pages reserve but leave unused, after contiguous preallocation's (first row).

    rows: (page size, contiguous waste, paged waste); used: the rows the batch fills. A share is of the rows reserved.
    """
    text = labels("serving", lang)
    head = [text["col_page_size"], text["col_wasted_paged"], text["col_share"]]
    body = [[text["contiguous"], int(rows[0][1]), pct(rows[0][1] / (used + rows[0][1]))]]
    body += [[p, int(paged), pct(paged / (used + paged))] for p, _, paged in rows]
    return md_table(head, body)


def page_waste(lengths, contiguous, paged, page_sizes, *, lang=None):
    """Draw each sequence's reserved but unused K/V rows: contiguous preallocation against pages, a slider over sizes.

    contiguous: [batch] rows each wastes; paged: [len(page_sizes), batch].
    """
    text = labels("serving", lang)
    x = [text["seq_label"].format(i=i, n=n) for i, n in enumerate(lengths)]
    fig = go.Figure()
    fig.add_trace(
        go.Bar(x=x, y=list(map(int, contiguous)), name=text["contiguous"], marker_color=MUTED, hovertemplate="%{y}")
    )
    for row in paged:
        fig.add_trace(go.Bar(x=x, y=list(map(int, row)), name=text["paged"], marker_color=ACCENT, hovertemplate="%{y}"))
    steps = []
    for s, (p, row) in enumerate(zip(page_sizes, paged)):
        words = text["waste_note"].format(c=int(np.sum(contiguous)), w=int(np.sum(row)), p=p)
        notes = [note(words, 0, 1.16, font=dict(color=ACCENT), xanchor="left", yanchor="bottom")]
        steps.append((p, [0, s + 1], {"annotations": notes}))
    fig.update_layout(barmode="group", legend=dict(orientation="h", x=0, y=1.02, xanchor="left", yanchor="bottom"))
    fig.update_xaxes(title=text["request"], tickangle=0)
    fig.update_yaxes(title=text["wasted_rows"])
    return finish(fig, steps, kind="slider", prefix=text["page_size"], active=2, height=540, margin=dict(t=110, b=120))

"""Chapter 18's figures and tables: the real model's attention maps, its attention on the first token, and the
measurements of its masks as Markdown tables."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures.controls import finish
from primer.figures.look import CLOSED_COLOR, NEG_INF, OPEN_SCALE
from primer.figures.tables import fmt_below, integer, md_table, pct
from primer.language import labels

GRID = 3  # the heads drawn as a GRID x GRID grid


def token_label(token):  # str -> str
    """Return a token as a tick label: its leading space shown as a middle dot."""
    return token.replace(" ", "·") or "∅"


def attention_maps(tokens, attn, *, lang=None):  # [n] str, [n_layers, h, n, n] -> Figure
    """Draw every head of one layer as a heatmap (query rows, key columns), a slider picking the layer."""
    text = labels("real_model", lang)
    n_layers, n_heads, n, _ = attn.shape
    if n_heads != GRID * GRID:
        raise ValueError(f"attn must have {GRID * GRID} heads to fill the grid, got {n_heads}")
    ticks = [f"{i}:{token_label(t)}" for i, t in enumerate(tokens)]
    fig = make_subplots(
        rows=GRID,
        cols=GRID,
        subplot_titles=[text["head"].format(h=h) for h in range(n_heads)],
        horizontal_spacing=0.03,
        vertical_spacing=0.06,
    )
    closed = np.triu(np.ones((n, n)), k=1)  # the causal mask's closed cells, the same in every head
    for h in range(n_heads):
        fig.add_trace(
            go.Heatmap(
                z=np.where(closed > 0, 1.0, np.nan).tolist(),
                text=np.where(closed > 0, NEG_INF, "").tolist(),
                x=ticks,
                y=ticks,
                colorscale=[[0, CLOSED_COLOR], [1, CLOSED_COLOR]],
                showscale=False,
                hovertemplate="%{y} → %{x}: %{text}<extra></extra>",
            ),
            row=h // GRID + 1,
            col=h % GRID + 1,
        )
    for layer in range(n_layers):
        for h in range(n_heads):
            w = np.where(closed > 0, np.nan, attn[layer, h])
            fig.add_trace(
                go.Heatmap(
                    z=w.tolist(),
                    x=ticks,
                    y=ticks,
                    zmin=0,
                    zmax=1,
                    colorscale=OPEN_SCALE,
                    showscale=h == 0,
                    colorbar=dict(title=dict(text=text["weight"], side="right"), len=0.6, thickness=14),
                    hovertemplate=text["hover_weight"],
                ),
                row=h // GRID + 1,
                col=h % GRID + 1,
            )
    always = list(range(n_heads))
    steps = [(layer, always + [n_heads * (1 + layer) + h for h in range(n_heads)], {}) for layer in range(n_layers)]
    fig.update_annotations(font_size=12)  # the head titles: at a phone's width a panel is about 50 px wide
    fig.update_yaxes(autorange="reversed", showticklabels=False)
    fig.update_xaxes(showticklabels=False)
    for r in range(1, GRID + 1):
        fig.update_yaxes(showticklabels=True, tickfont=dict(size=10), row=r, col=1)
        fig.update_xaxes(showticklabels=True, tickfont=dict(size=10), tickangle=-60, row=GRID, col=r)
    return finish(fig, steps, height=820, margin=dict(l=110, r=20, t=40, b=130), prefix=text["layer_prefix"], active=5)


def sink_shares(shares, *, lang=None):  # {text key: [n_layers, h]} -> Figure
    """Draw each head's share of attention on the first token, layers across and heads down, buttons per text."""
    text = labels("real_model", lang)
    fig = go.Figure()
    for share in shares.values():
        n_layers, n_heads = share.shape
        fig.add_trace(
            go.Heatmap(
                z=share.T.tolist(),
                x=list(range(n_layers)),
                y=[text["head"].format(h=h) for h in range(n_heads)],
                zmin=0,
                zmax=1,
                colorscale=OPEN_SCALE,
                colorbar=dict(title=dict(text=text["share"], side="right"), tickformat=".0%"),
                hovertemplate=text["hover_share"],
                xgap=1,
                ygap=1,
            )
        )
    fig.update_xaxes(title_text=text["layer"], dtick=2)
    fig.update_yaxes(autorange="reversed")
    steps = [(text["texts"][key], [i], {}) for i, key in enumerate(shares)]
    return finish(fig, steps, height=430, kind="buttons", margin=dict(t=80))


def share_table(share, lang=None):  # [n_layers, h] -> Markdown
    """Return per group of layers the range of their mean share on the first token, and the median of layers 3 on."""
    text = labels("real_model", lang)
    per_layer = share.mean(axis=1)
    rows = []
    for first, last in LAYER_GROUPS:
        part = per_layer[first : last + 1]
        rows.append([f"{first}–{last}", f"{pct(part.min(), 0)} – {pct(part.max(), 0)}"])
    head = [text["col_layers"], text["col_share_range"]]
    return md_table(head, rows)


LAYER_GROUPS = ((0, 2), (3, 9), (10, 11), (12, 29))  # the groups the page describes


def window_table(losses, windows, sinks, lang=None):  # -> Markdown
    """Return the next-token loss per window: the window only, the window plus the first sinks tokens, causal."""
    text = labels("real_model", lang)
    head = [text["col_window"], text["col_window_only"], text["col_with_sinks"].format(s=sinks), text["col_causal"]]
    rows = [
        [str(w), f"{a:.2f}", f"{b:.2f}", f"{losses['causal']:.2f}"]
        for w, a, b in zip(windows, losses["window"], losses["sinks"])
    ]
    return md_table(head, rows)


def packing_table(result, bounds, lang=None):  # -> Markdown
    """Return the second document's mean next-token loss alone, packed without and with the document mask, and the
    document-masked logits' gap to the document alone."""
    text = labels("real_model", lang)
    rows = [[text["alone"], f"{result['alone']:.2f}", "–", "–"], [text["packed"], f"{result['packed']:.2f}", "–", "–"]]
    rows.append([text["document"], f"{result['document']:.2f}", *gap_cells(result["gap"], bounds)])
    return md_table([text["col_setting"], text["col_loss_b"], text["col_gap"], text["col_gap_rel"]], rows)


def gap_cells(gap, bounds):  # (absolute, relative), (bound, bound) -> [str, str]
    """Format a float32 logit gap: under its bound as '< bound' (its digits are rounding), else its magnitude."""
    return [fmt_below(g, b) for g, b in zip(gap, bounds)]


def padding_table(result, bounds, lang=None):  # -> Markdown
    """Return, for each way of left padding, the logit gap to the unpadded pass and the top next token."""
    text = labels("real_model", lang)
    rows = [
        [text[k], *gap_cells(result[k]["gap"], bounds), f"`{result[k]['top']}`"]
        for k in ("correct", "no_mask", "not_shifted")
    ]
    head = [text["col_way"], text["col_gap"], text["col_gap_rel"], text["col_top"]]
    return md_table(head, rows)


def bidirectional_table(result, lang=None):  # -> Markdown
    """Return the mean next-token loss, the top-1 accuracy and the share of self-copies under each mask."""
    text = labels("real_model", lang)
    rows = [
        [text[k], f"{result[k]['loss']:.2f}", pct(result[k]["top1"], 0), pct(result[k]["own"], 0)]
        for k in ("causal", "full")
    ]
    return md_table([text["col_mask"], text["col_loss"], text["col_top1"], text["col_own"]], rows)


def cache_table(result, bounds, lang=None):  # -> Markdown
    """Return the cached decode's largest logit gap to the full pass, absolute and relative."""
    text = labels("real_model", lang)
    rows = [[str(result["steps"]), *gap_cells(result["gap"], bounds)]]
    return md_table([text["col_steps"], text["col_gap"], text["col_gap_rel"]], rows)


def kit_table(found, lang=None):  # {(check, dtype): [Problem]} -> Markdown
    """Return, per check and dtype, how many problems the check kit found in the real layer."""
    text = labels("real_model", lang)
    rows = [
        [f"`{check}`", dtype, str(len(problems)) if problems else text["none"]]
        for (check, dtype), problems in found.items()
    ]
    return md_table([text["col_check"], text["col_dtype"], text["col_found"]], rows)


def model_table(model, lang=None):  # Model -> Markdown
    """Return the loaded model's shape, as its file states it, and its number of parameters."""
    text = labels("real_model", lang)
    cfg = model.cfg
    n_params = sum(w.size for w in [model.params["embedding"], model.params["final_norm"]]) + sum(
        w.size for layer in model.params["layers"] for w in layer.values()
    )
    rows = [
        (text["props"]["layers"], cfg.n_layers),
        (text["props"]["d_model"], cfg.d_model),
        (text["props"]["heads"], f"{cfg.n_heads} × {cfg.d_head}"),
        (text["props"]["kv_heads"], cfg.n_kv_heads),
        (text["props"]["d_ff"], cfg.d_ff),
        (text["props"]["vocab"], integer(cfg.vocab_size, lang)),
        (text["props"]["params"], integer(n_params, lang)),
        (text["props"]["theta"], integer(model.theta, lang)),
    ]
    return md_table([text["col_property"], text["col_value"]], rows)

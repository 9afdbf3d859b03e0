"""Figures of the chapter "What the cache costs in memory": bytes as the context grows, per model."""

import plotly.graph_objects as go

from primer.figures._style import ACCENT, MUTED, page_lang, styled
from primer.figures.tables import md_table

GIB = 1024 ** 3

TEXT = {
    "zh": {
        "tokens": "上下文长度（token 数）", "gib": "KV 缓存（GiB）", "curve": "{m}：KV 缓存随上下文增长",
        "filled": "已占用", "max": "公开的最长上下文 {c}", "note": "{m}，{n} 个 token：{b}",
        "window": "（滑动窗口 {w}：超出部分不再缓存）", "model": "模型", "slider": "上下文 = ",
    },
    "en": {
        "tokens": "context length (tokens)", "gib": "KV cache (GiB)", "curve": "{m}: KV cache as the context grows",
        "filled": "in use", "max": "published max context {c}", "note": "{m}, {n} tokens: {b}",
        "window": " (sliding window {w}: older tokens are dropped)", "model": "model", "slider": "context = ",
    },
}


def fill_chart(models, lengths, curve_x, curves, filled, fmt, *, active_model=0, active_length=None, lang=None):
    """Draw KV-cache memory over context length; a dropdown picks the model, a slider the length.

    models: list of (name, max_context, window); curves[m]: bytes at curve_x; filled[m][j]: bytes at lengths[j];
    fmt formats a byte count.
    Every (model, length) state is precomputed: the dropdown swaps in that model's slider.
    """
    t = TEXT[page_lang(lang)]
    fig = go.Figure()
    n_len = len(lengths)
    per_model = 2 + n_len
    for m, (name, max_ctx, window) in enumerate(models):
        fig.add_trace(go.Scatter(x=list(curve_x), y=[b / GIB for b in curves[m]], mode="lines",
                                 line=dict(color=MUTED, dash="dash"), name=t["curve"].format(m=name),
                                 hovertemplate="%{x:,} → %{y:.3f} GiB<extra></extra>"))
        top = max(curves[m]) / GIB
        fig.add_trace(go.Scatter(x=[max_ctx, max_ctx], y=[0, top], mode="lines+text", line=dict(color="#2ca02c", dash="dot"),
                                 text=["", t["max"].format(c=f"{max_ctx:,}")], textposition="bottom right",
                                 textfont=dict(color="#2ca02c"), name=t["max"].format(c=f"{max_ctx:,}"), hoverinfo="skip"))
        for j, n in enumerate(lengths):
            xs = [x for x in curve_x if x < n] + [n]
            ys = [b / GIB for x, b in zip(curve_x, curves[m]) if x < n] + [filled[m][j] / GIB]
            fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines", fill="tozeroy", line=dict(color=ACCENT, width=3),
                                     fillcolor="rgba(232,113,10,0.35)", name=t["filled"],
                                     hovertemplate="%{x:,} → %{y:.3f} GiB<extra></extra>"))

    def visible(m, j):
        shown = {m * per_model, m * per_model + 1, m * per_model + 2 + j}
        return [i in shown for i in range(len(fig.data))]

    def note(m, j):
        name, _, window = models[m]
        text = t["note"].format(m=name, n=f"{lengths[j]:,}", b=fmt(filled[m][j]))
        if window is not None and lengths[j] > window:
            text += t["window"].format(w=f"{window:,}")
        return [dict(text=text, x=0, xref="paper", y=1.01, yref="paper", xanchor="left", yanchor="bottom",
                     showarrow=False, font=dict(size=15, color=ACCENT))]

    def slider(m, active):
        steps = [dict(label=f"{n:,}", method="update", args=[{"visible": visible(m, j)}, {"annotations": note(m, j)}])
                 for j, n in enumerate(lengths)]
        return dict(active=active, steps=steps, currentvalue=dict(prefix=t["slider"]), pad=dict(t=50))

    j0 = n_len - 1 if active_length is None else active_length
    buttons = [dict(label=name, method="update",
                    args=[{"visible": visible(m, j0)}, {"sliders": [slider(m, j0)], "annotations": note(m, j0)}])
               for m, (name, _, _) in enumerate(models)]
    for trace, shown in zip(fig.data, visible(active_model, j0)):
        trace.visible = shown
    fig.update_layout(sliders=[slider(active_model, j0)], annotations=note(active_model, j0),
                      updatemenus=[dict(type="dropdown", active=active_model, buttons=buttons, x=0, xanchor="left",
                                        y=1.1, yanchor="bottom")],
                      showlegend=False)
    fig.update_xaxes(title=t["tokens"], range=[0, max(curve_x)])
    fig.update_yaxes(title=t["gib"], rangemode="tozero")
    styled(fig, height=540)
    fig.update_layout(margin=dict(t=120))
    return fig


TABLE = {
    "zh": {
        "factor": "因子", "value": "取值", "kv": "K 和 V", "layers": "层数", "kv_heads": "KV 头数",
        "head_dim": "每头维度（{d} ÷ {h}）", "bytes": "每个值的字节数（fp16）", "per_token": "每个 token 合计",
        "tokens": "上下文 token 数", "cache": "KV 缓存", "model": "模型", "q_heads": "查询头数", "hd": "每头维度",
        "max": "公开的最长上下文", "at_max": "上下文用满时", "with_window": "（窗口 {w}）", "per_tok": "每个 token",
        "case": "情形", "without": "不用这一招", "with": "用了之后", "saved": "缩小为",
        "gqa": "{m}，{n} 个 token：{a} 个 KV 头 → {b} 个（分组查询注意力）",
        "swa": "{m}，{n} 个 token：全部缓存 → 只留最近 {w} 个（滑动窗口）",
        "dtype": "缓存的 dtype", "nbytes": "primer 缓存实际的 `nbytes`", "formula": "公式算出的字节数", "equal": "一致",
    },
    "en": {
        "factor": "factor", "value": "value", "kv": "K and V", "layers": "layers", "kv_heads": "KV heads",
        "head_dim": "head dim ({d} ÷ {h})", "bytes": "bytes per value (fp16)", "per_token": "per token, in all",
        "tokens": "context tokens", "cache": "KV cache", "model": "model", "q_heads": "query heads", "hd": "head dim",
        "max": "published max context", "at_max": "at max context", "with_window": " (window {w})", "per_tok": "per token",
        "case": "case", "without": "without", "with": "with", "saved": "shrinks to",
        "gqa": "{m}, {n} tokens: {a} KV heads → {b} (grouped-query attention)",
        "swa": "{m}, {n} tokens: keep all → keep the last {w} (sliding window)",
        "dtype": "cache dtype", "nbytes": "actual `nbytes` of primer's cache", "formula": "bytes by the formula", "equal": "equal",
    },
}


def per_token_table(shape, bytes_per_value, per_token, fmt, *, lang=None):
    """Return the factors of one token's KV cache for a shape, and their product."""
    t = TABLE[page_lang(lang)]
    rows = [[t["kv"], 2], [t["layers"], shape.n_layers], [t["kv_heads"], shape.n_kv_heads],
            [t["head_dim"].format(d=shape.d_model, h=shape.n_heads), shape.head_dim],
            [t["bytes"], bytes_per_value], [f"**{t['per_token']}**", f"**{fmt(per_token)}** ({per_token:,} B)"]]
    return md_table([t["factor"], t["value"]], rows)


def context_table(rows, fmt, *, bold=None, lang=None):
    """Return a Markdown table of (tokens, bytes) rows; the row whose tokens equal bold is set in bold."""
    t = TABLE[page_lang(lang)]
    out = [[f"{n:,}", f"**{fmt(b)}**" if n == bold else fmt(b)] for n, b in rows]
    return md_table([t["tokens"], t["cache"]], out)


def models_table(rows, fmt, *, lang=None):
    """Return a Markdown table of published shapes: (shape, per-token bytes, bytes at max context) rows."""
    t = TABLE[page_lang(lang)]
    out = [[s.name + (t["with_window"].format(w=f"{s.window:,}") if s.window else ""), s.n_layers, s.n_heads,
            s.n_kv_heads, s.head_dim, fmt(per), f"{s.max_context:,}", fmt(full)] for s, per, full in rows]
    return md_table([t["model"], t["layers"], t["q_heads"], t["kv_heads"], t["hd"], t["per_tok"], t["max"],
                     t["at_max"]], out)


def savings_table(rows, fmt, *, lang=None):
    """Return a Markdown table of (kind, fields, bytes without, bytes with) rows; kind is 'gqa' or 'swa'."""
    t = TABLE[page_lang(lang)]
    out = []
    for kind, fields, without, with_ in rows:
        out.append([t[kind].format(**fields), fmt(without), fmt(with_), f"1/{without // with_}" if without % with_ == 0
                    else f"{with_ / without:.2f}"])
    return md_table([t["case"], t["without"], t["with"], t["saved"]], out)


def nbytes_table(rows, *, lang=None):
    """Return a Markdown table of (dtype, tokens, actual nbytes, formula bytes) rows."""
    t = TABLE[page_lang(lang)]
    out = [[f"`{d}`", n, f"{a:,}", f"{f:,}", "✓" if a == f else "✗"] for d, n, a, f in rows]
    return md_table([t["dtype"], t["tokens"], t["nbytes"], t["formula"], t["equal"]], out)

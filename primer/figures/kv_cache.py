"""Figures of the chapter "The generation loop and the KV cache": the loop, and what it costs."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures._style import ACCENT, MUTED, add_control, page_lang, styled
from primer.figures.tables import md_table
from primer.softmax import softmax

TEXT = {
    "zh": {
        "step": "第 {s} 步", "steps": "步骤 ", "pos": "位置", "prob": "下一个 token 的概率",
        "run": "第 {s} 步：把全部 {n} 个 token 从头算一遍<br>→ 预测「{w}」",
        "grid": "蓝：重算的前缀　橙：新 token", "bars": "最后一个位置的前 {k} 名",
        "recomputed": "重算", "new": "新 token",
        "without": "不用缓存：Σ n²", "with": "KV 缓存：Σ n", "n": "生成步数 N", "work": "注意力分数个数（每层每头）",
        "mark": "N = {n}<br>{a} 对 {b}<br>相差 {r}×", "slider": "N = ",
    },
    "en": {
        "step": "step {s}", "steps": "step ", "pos": "position", "prob": "next-token probability",
        "run": "step {s}: rerun all {n} tokens from scratch<br>→ predict “{w}”",
        "grid": "blue: prefix rerun · orange: new token", "bars": "top {k} candidates at the last position",
        "recomputed": "recomputed", "new": "new token",
        "without": "no cache: Σ n²", "with": "KV cache: Σ n", "n": "generation steps N", "work": "attention scores (per layer, per head)",
        "mark": "N = {n}<br>{a} vs {b}<br>{r}× apart", "slider": "N = ",
    },
}


def loop_steps(steps, vocab, *, top_k=6, lang=None):
    """Draw the loop without a cache: each step reruns the whole prefix, then appends its prediction; a slider steps."""
    t = TEXT[page_lang(lang)]
    n_steps = len(steps)
    width = len(steps[-1]["input"]) + 1
    fig = make_subplots(rows=2, cols=1, row_heights=[0.58, 0.42], vertical_spacing=0.2,
                        subplot_titles=(t["grid"], t["bars"].format(k=top_k)))
    titles = [a.to_plotly_json() for a in fig.layout.annotations]   # the subplot titles: every step keeps them
    y = [t["step"].format(s=s + 1) for s in range(n_steps)]
    x = list(range(width))
    control = []
    for s, step in enumerate(steps):
        z = np.full((n_steps, width), np.nan)
        text = [["" for _ in range(width)] for _ in range(n_steps)]
        for r in range(s + 1):
            inp = steps[r]["input"]
            z[r, :len(inp)] = 1.0
            z[r, len(inp)] = 2.0
            for j, tok in enumerate(list(inp) + [steps[r]["next"]]):
                text[r][j] = vocab[int(tok)]
        fig.add_trace(go.Heatmap(z=z.tolist(), x=x, y=y, text=text, texttemplate="%{text}", zmin=1, zmax=2,
                                 colorscale=[[0, "#9ecae1"], [0.5, "#9ecae1"], [0.5, ACCENT], [1, ACCENT]],
                                 showscale=False, xgap=2, ygap=2, hoverinfo="skip"), row=1, col=1)
        p = softmax(step["logits"])
        top = np.argsort(-p)[:top_k]
        fig.add_trace(go.Bar(x=[vocab[int(i)] for i in top], y=p[top].tolist(), text=[f"{v:.2f}" for v in p[top]],
                             textposition="outside", marker_color=[ACCENT if i == step["next"] else MUTED for i in top],
                             hovertemplate="%{x}: %{y:.3f}<extra></extra>"), row=2, col=1)
        note = t["run"].format(s=s + 1, n=len(step["input"]), w=vocab[step["next"]])
        control.append((s + 1, [2 * s, 2 * s + 1], {"annotations": titles + [
            dict(text=note, x=0, xref="paper", y=1.1, yref="paper", xanchor="left", yanchor="bottom", showarrow=False, align="left",
                 font=dict(size=14, color=ACCENT))]}))
    fig.update_yaxes(autorange="reversed", row=1, col=1)
    fig.update_xaxes(title=t["pos"], dtick=1, row=1, col=1)
    fig.update_yaxes(range=[0, 1.15], title=t["prob"], row=2, col=1)
    fig.update_layout(showlegend=False)
    add_control(fig, control, kind="slider", prefix=t["steps"], active=0)
    styled(fig, height=680)
    fig.update_layout(margin=dict(t=130))
    return fig


def work_curves(ns, without, with_cache, marks, *, lang=None):
    """Draw total attention work over N on log axes, without and with a cache; a slider picks N and shows the ratio."""
    t = TEXT[page_lang(lang)]
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=list(ns), y=list(without), mode="lines", name=t["without"], line=dict(color="#d62728", width=3)))
    fig.add_trace(go.Scatter(x=list(ns), y=list(with_cache), mode="lines", name=t["with"], line=dict(color="#1f77b4", width=3)))
    control = []
    for n, a, b, ratio in marks:
        start = len(fig.data)
        fig.add_trace(go.Scatter(x=[n, n], y=[b, a], mode="lines+markers", showlegend=False,
                                 line=dict(color=ACCENT, dash="dot"), marker=dict(size=11, color=ACCENT),
                                 hovertemplate="%{y:,}<extra></extra>"))
        note = t["mark"].format(n=f"{n:,}", a=f"{a:,}", b=f"{b:,}", r=ratio)
        control.append((f"{n:,}", [0, 1, start], {"annotations": [
            dict(text=note, x=0.02, xref="paper", y=0.98, yref="paper", xanchor="left", yanchor="top", align="left",
                 showarrow=False, font=dict(size=14, color=ACCENT), bgcolor="rgba(255,255,255,0.6)")]}))
    fig.update_xaxes(type="log", title=t["n"])
    fig.update_yaxes(type="log", title=t["work"], exponentformat="power")
    fig.update_layout(legend=dict(x=0.98, xanchor="right", y=0.02, yanchor="bottom"))
    active = next((i for i, m in enumerate(marks) if m[0] == 1000), 0)
    add_control(fig, control, kind="slider", prefix=t["slider"], active=active)
    return styled(fig, height=500)


TABLE = {
    "zh": {
        "layers": "层数", "heads": "头数", "n": "序列长度", "diff": "缓存解码与全部重算的最大差",
        "what": "旧位置上的量", "causal": "因果掩码", "full": "双向（全开）掩码", "k": "第 {i} 层的 K", "v": "第 {i} 层的 V",
        "logits": "输出 logits", "changed": "把旧的哪一行换成噪声", "moved": "新一行输出最多变了多少",
        "old_q": "旧的 q（查询）", "old_k": "旧的 k（键）", "old_v": "旧的 v（值）",
        "N": "N", "sq": "不用缓存 Σ n²", "lin": "KV 缓存 Σ n", "ratio": "比值", "formula": "(2N+1)/3",
        "count_wo": "primer 实测（无缓存）", "model_wo": "成本模型（无缓存）", "count_w": "primer 实测（有缓存）",
        "model_w": "成本模型（有缓存）", "match": "一致", "counter": "计数器",
    },
    "en": {
        "layers": "layers", "heads": "heads", "n": "length", "diff": "largest difference, cached vs full recompute",
        "what": "quantity at the old positions", "causal": "causal mask", "full": "bidirectional (full) mask",
        "k": "K of layer {i}", "v": "V of layer {i}", "logits": "output logits",
        "changed": "old rows replaced by noise", "moved": "largest change of the new row's output",
        "old_q": "old q (queries)", "old_k": "old k (keys)", "old_v": "old v (values)",
        "N": "N", "sq": "no cache Σ n²", "lin": "KV cache Σ n", "ratio": "ratio", "formula": "(2N+1)/3",
        "count_wo": "primer counted (no cache)", "model_wo": "cost model (no cache)", "count_w": "primer counted (cache)",
        "model_w": "cost model (cache)", "match": "equal", "counter": "counter",
    },
}


def _e(x):
    return "0" if x == 0 else f"{x:.1e}"


def equality_table(rows, *, lang=None):
    """Return a Markdown table of (layers, heads, length, max |difference|) rows."""
    t = TABLE[page_lang(lang)]
    return md_table([t["layers"], t["heads"], t["n"], t["diff"]], [[a, b, c, _e(d)] for a, b, c, d in rows])


def drift_table(causal, full, *, lang=None):
    """Return a Markdown table of how far the old positions move when a token is appended, per mask."""
    t = TABLE[page_lang(lang)]
    rows = []
    for i in range(len(causal["k"])):
        rows.append([t["k"].format(i=i + 1), _e(causal["k"][i]), _e(full["k"][i])])
        rows.append([t["v"].format(i=i + 1), _e(causal["v"][i]), _e(full["v"][i])])
    rows.append([t["logits"], _e(causal["logits"]), f"**{_e(full['logits'])}**"])
    return md_table([t["what"], t["causal"], t["full"]], rows)


def dependence_table(change, *, lang=None):
    """Return a Markdown table: which old rows, once replaced by noise, move the new row's output."""
    t = TABLE[page_lang(lang)]
    rows = [[t["old_" + name], f"**{_e(change[name])}**" if change[name] == 0 else _e(change[name])] for name in ("q", "k", "v")]
    return md_table([t["changed"], t["moved"]], rows)


def work_table(rows, *, lang=None):
    """Return a Markdown table of (N, sum n^2, sum n, exact ratio) rows; the ratio is shown as N×."""
    t = TABLE[page_lang(lang)]
    out = []
    for n, sq, lin, ratio in rows:
        r = float(ratio)
        cell = f"{r:,.0f}×" if r == round(r) else f"{r:,.2f}×"
        out.append([f"{n:,}", f"{sq:,}", f"{lin:,}", f"**{cell}**" if n == 1000 else cell, f"{(2 * n + 1) / 3:,.2f}"])
    return md_table([t["N"], t["sq"], t["lin"], t["ratio"], t["formula"]], out)


def ops_table(rows, *, keys=("scores", "kv_rows"), lang=None):
    """Return a Markdown table of counted vs predicted work, for (N, counted no-cache, model, counted cache, model) rows."""
    t = TABLE[page_lang(lang)]
    out = []
    for n, cw, mw, cc, mc in rows:
        for key in keys:
            ok = "✓" if (cw[key], cc[key]) == (mw[key], mc[key]) else "✗"
            out.append([n, f"`{key}`", f"{cw[key]:,}", f"{mw[key]:,}", f"{cc[key]:,}", f"{mc[key]:,}", ok])
    return md_table([t["N"], t["counter"], t["count_wo"], t["model_wo"], t["count_w"], t["model_w"], t["match"]], out)

"""Figures of the chapter "Encoder-only": arcs in both directions, the always-open grid, masked LM."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures._style import ACCENT, CLOSED_COLOR, MUTED, add_control, heatmap_traces, page_lang, styled
from primer.figures.tables import md_table, pct

LEFT_COLOR = "#1f77b4"
RIGHT_COLOR = "#2ca02c"

TEXT = {
    "zh": {
        "token": "高亮 token：", "reads": "它读谁（上方弧线，按行）", "read_by": "谁读它（下方弧线，按列）",
        "n": "n = ", "open": "{n}×{n} 网格：{k} / {t} 格开着", "q": "查询", "k": "键",
        "step": "第 {s} 步", "step0": "第 0 步：[MASK] 还什么都没读，只剩先验（词频）",
        "step1": "第 1 步：读左边 {l}，也读右边 {r}", "step2": "第 2 步：解出 “{w}”",
        "prior": "先验（什么都不读）", "left": "只读左边", "both": "左右都读", "prob": "计数模型给的概率",
        "step_prefix": "步骤：", "weight": "权重",
    },
    "en": {
        "token": "highlighted token: ", "reads": "what it reads (arcs above, its row)", "read_by": "who reads it (arcs below, its column)",
        "n": "n = ", "open": "{n}×{n} grid: {k} / {t} cells open", "q": "query", "k": "key",
        "step": "step {s}", "step0": "step 0: [MASK] has read nothing yet, only the prior (word counts)",
        "step1": "step 1: it reads the left, {l}, and the right, {r}", "step2": "step 2: resolved to “{w}”",
        "prior": "prior (reads nothing)", "left": "left only", "both": "both sides", "prob": "probability from the counting model",
        "step_prefix": "step: ", "weight": "weight",
    },
}


def labels(words):
    """Return unique axis labels 'i word' (a repeated word such as 'the' would merge on a category axis)."""
    return [f"{i} {w}" for i, w in enumerate(words)]


def arc_trace(i, j, weight, *, above=True, color=ACCENT, row=None, scale=16.0, text=True):
    """Return a half-ellipse from token i to token j, as thick as its weight, labelled at the top."""
    t = np.linspace(0, np.pi, 30)
    mid, half = (i + j) / 2, (j - i) / 2
    height = (0.25 + 0.22 * abs(j - i)) * (1 if above else -1)
    x = mid - half * np.cos(t)
    y = height * np.sin(t)
    label = [""] * len(t)
    if text:
        label[len(t) // 2] = f"{weight:.2f}"
    return go.Scatter(x=x, y=y, mode="lines+text" if text else "lines", text=label, textposition="top center" if above else "bottom center",
                      line=dict(color=color, width=max(0.8, scale * float(weight)), shape="spline"),
                      hoverinfo="skip", showlegend=False, textfont=dict(size=11, color=color))


def token_trace(words, highlight, *, visible_upto=None, filled=None, y=0.0):
    """Return the row of tokens as text markers; highlight one, grey out those beyond visible_upto."""
    n = len(words)
    colors, text = [], []
    for j, w in enumerate(words):
        if j == highlight:
            colors.append(ACCENT)
        elif visible_upto is not None and j > visible_upto:
            colors.append(CLOSED_COLOR)
        else:
            colors.append(LEFT_COLOR)
        text.append(filled if (j == highlight and filled) else w)
    return go.Scatter(x=list(range(n)), y=[y] * n, mode="markers+text", text=text, textposition="middle center",
                      marker=dict(size=44, color=colors, opacity=0.22, line=dict(color=colors, width=2)),
                      textfont=dict(size=14), hoverinfo="skip", showlegend=False)


def both_directions(words, weights, *, lang=None):
    """Draw each token's arcs to every other token: above, what it reads; below, who reads it. A slider picks the token."""
    t = TEXT[page_lang(lang)]
    n = len(words)
    weights = np.asarray(weights)
    fig = go.Figure()
    steps = []
    for i in range(n):
        start = len(fig.data)
        fig.add_trace(token_trace(words, i))
        for j in range(n):
            if j != i:
                fig.add_trace(arc_trace(i, j, weights[i, j], above=True, color=ACCENT))
                fig.add_trace(arc_trace(j, i, weights[j, i], above=False, color=LEFT_COLOR))
        steps.append((f"{i} {words[i]}", list(range(start, len(fig.data))), None))
    top = 0.25 + 0.22 * (n - 1) + 0.35
    fig.update_xaxes(visible=False, range=[-0.6, n - 0.4])
    fig.update_yaxes(visible=False, range=[-top, top])
    fig.add_annotation(x=-0.55, y=top - 0.1, text=t["reads"], showarrow=False, xanchor="left", font=dict(color=ACCENT))
    fig.add_annotation(x=-0.55, y=-top + 0.1, text=t["read_by"], showarrow=False, xanchor="left", font=dict(color=LEFT_COLOR))
    add_control(fig, steps, kind="slider", prefix=t["token"], active=2 if n > 2 else 0)
    return styled(fig, height=460)


def open_grid(ns, masks, *, lang=None):
    """Draw the n×n mask for each n; a slider changes n and every cell stays open."""
    t = TEXT[page_lang(lang)]
    fig = go.Figure()
    steps = []
    for n, mask in zip(ns, masks):
        mask = np.asarray(mask)
        start = len(fig.data)
        for trace in heatmap_traces(mask.astype(float), mask, x=list(range(n)), y=list(range(n)), fmt="",
                                    colorscale=[[0, "#6baed6"], [1, "#6baed6"]], zmin=0, zmax=1):
            fig.add_trace(trace)
        title = t["open"].format(n=n, k=int(mask.sum()), t=mask.size)
        steps.append((n, [start, start + 1], {"xaxis.range": [-0.5, n - 0.5], "yaxis.range": [n - 0.5, -0.5],
                                              "title.text": title}))
    fig.update_layout(title=dict(text="", x=0.01))
    fig.update_xaxes(title=t["k"], dtick=1, constrain="domain")
    fig.update_yaxes(title=t["q"], dtick=1, scaleanchor="x")
    add_control(fig, steps, kind="slider", prefix=t["n"], active=min(4, len(ns) - 1))
    fig = styled(fig, height=520)
    fig.update_layout(margin=dict(t=60))
    fig.update_layout(title=dict(text=steps[min(4, len(ns) - 1)][2]["title.text"], x=0.01, xanchor="left"))
    return fig


def mlm_walk(words, position, steps, vocab, *, top=6, lang=None):
    """Draw the [MASK] position step by step: what it reads (arcs) and what the counting model guesses (bars)."""
    t = TEXT[page_lang(lang)]
    n = len(words)
    fig = make_subplots(rows=2, cols=1, row_heights=[0.45, 0.55], vertical_spacing=0.12)
    shown = ["[MASK]" if j == position else w for j, w in enumerate(words)]
    both = steps[-1]["probs"]
    cand = [int(k) for k in np.argsort(-both, kind="stable")[:top]]
    left_best = int(np.argmax(steps[1]["left_probs"]))
    if left_best not in cand:
        cand[-1] = left_best
    prior_best = int(np.argmax(steps[0]["probs"]))
    if prior_best not in cand:
        cand[-2] = prior_best
    cand_words = [vocab[k] for k in cand]
    specs = []
    for s in steps:
        start = len(fig.data)
        fig.add_trace(token_trace(shown, position, filled=s["filled"], y=0.0), row=1, col=1)
        for j in s["reads"]:
            color = LEFT_COLOR if j < position else RIGHT_COLOR
            fig.add_trace(arc_trace(min(j, position), max(j, position), 0.25, above=True, color=color, text=False), row=1, col=1)
        if s["left_probs"] is not None and s["filled"] is None:
            fig.add_trace(go.Bar(x=cand_words, y=[s["left_probs"][k] for k in cand], name=t["left"], marker_color=MUTED,
                                 text=[pct(s["left_probs"][k]) for k in cand], textposition="outside"), row=2, col=1)
        name = t["prior"] if s["step"] == 0 else t["both"]
        colors = [ACCENT if (s["filled"] and vocab[k] == s["filled"]) else (LEFT_COLOR if s["step"] == 0 else RIGHT_COLOR) for k in cand]
        fig.add_trace(go.Bar(x=cand_words, y=[s["probs"][k] for k in cand], name=name, marker_color=colors,
                             text=[pct(s["probs"][k]) for k in cand], textposition="outside"), row=2, col=1)
        left_words = " ".join(f"“{words[j]}”" for j in s["reads"] if j < position)
        right_words = " ".join(f"“{words[j]}”" for j in s["reads"] if j > position)
        title = [t["step0"], t["step1"].format(l=left_words, r=right_words), t["step2"].format(w=s["filled"])][s["step"]]
        specs.append((t["step"].format(s=s["step"]), list(range(start, len(fig.data))), {"title.text": title}))
    fig.update_xaxes(visible=False, range=[-0.6, n - 0.4], row=1, col=1)
    fig.update_yaxes(visible=False, range=[-0.5, 0.25 + 0.22 * (n - 1) + 0.2], row=1, col=1)
    fig.update_yaxes(range=[0, 1.12], tickformat=".0%", title=t["prob"], row=2, col=1)
    fig.update_layout(barmode="group", legend=dict(orientation="h", y=0.5, x=1, xanchor="right"))
    add_control(fig, specs, kind="slider", prefix=t["step_prefix"])
    fig = styled(fig, height=560)
    fig.update_layout(title=dict(text=specs[0][2]["title.text"], x=0.01, xanchor="left"), margin=dict(t=60))
    return fig


TABLE = {
    "zh": {"pos": "位置", "tok": "原词", "action": "80/10/10 规则", "shown": "模型看到的",
           "mask": "换成 [MASK]", "random": "换成随机词", "keep": "保持原样",
           "summary": "句子共 {n} 个 token，抽中 {k} 个去预测：实际比例 **{r}**（目标 {target}）。",
           "sides": "能读的上下文", "none": "什么都不读（只有词频）", "left": "只读左边", "right": "只读右边", "both": "左右都读",
           "guess": "第 {i} 名"},
    "en": {"pos": "position", "tok": "original", "action": "80/10/10 rule", "shown": "what the model reads",
           "mask": "replaced by [MASK]", "random": "replaced by a random word", "keep": "kept as is",
           "summary": "The sentence has {n} tokens; {k} were picked for prediction: an actual rate of **{r}** (target {target}).",
           "sides": "context it may read", "none": "nothing (word counts only)", "left": "left only", "right": "right only", "both": "both sides",
           "guess": "guess {i}"},
}


def masking_table(rows, n_tokens, rate, *, lang=None):
    """Return a Markdown table of the positions BERT's rule picked, and a line with the rate achieved."""
    t = TABLE[page_lang(lang)]
    body = [[i, f"`{w}`", t[action], f"`{shown}`"] for i, w, action, shown in rows]
    line = t["summary"].format(n=n_tokens, k=len(rows), r=pct(len(rows) / n_tokens), target=pct(rate, 0))
    return md_table([t["pos"], t["tok"], t["action"], t["shown"]], body) + "\n" + line + "\n"


def guesses_table(guesses, *, lang=None):
    """Return a Markdown table: for each context ('none', 'left', 'right', 'both'), the top guesses."""
    t = TABLE[page_lang(lang)]
    k = len(next(iter(guesses.values())))
    head = [t["sides"]] + [t["guess"].format(i=i + 1) for i in range(k)]
    body = []
    for sides, top in guesses.items():
        cells = [f"{w} ({pct(p)})" for w, p in top]
        cells[0] = f"**{cells[0]}**"
        body.append([t[sides]] + cells)
    return md_table(head, body)

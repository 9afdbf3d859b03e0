"""Figures of the seven-stage pipeline (chapter 12) and of an image sensor feeding a decoder (chapter 13)."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures._style import ACCENT, CLOSED_COLOR, MUTED, add_control, heatmap_traces, page_lang, styled
from primer.figures.tables import md_table

TEXT = {
    "zh": {
        "stages": ("① 分词", "② 嵌入", "③ N 个带掩码的块", "④ 最终归一化", "⑤ logits", "⑥ 采样", "⑦ 循环"),
        "stage": "阶段 ", "pos": "位置", "dim": "维度", "vocab": "词表", "step": "循环步",
        "ids": "字符 id", "prob": "最后一个位置的概率（T = {t:g}），选中 {c}",
        "loop": "每一步把采样到的字符接到末尾，再从阶段 ② 整个重算",
        "machines": {"encoder": "编码器（全开）", "decoder": "解码器（因果）", "encoder-decoder": "编码器-解码器（因果 + 交叉）"},
        "mask": "阶段 ③ 的掩码", "xtitle": "提示 {p} ｜ 源 {s}", "dep": "实测依赖", "out": "输出位置",
        "col_stage": "阶段", "col_name": "名称", "col_shape": "形状", "col_glimpse": "前几个值",
        "reads": "输出 {i}（{c}）读到的输入", "none": "—", "source": "源 ",
        "patch": "图块 ", "image": "玩具图像和它的图块", "row_kind": "行", "img": "图像前缀", "txt": "文本",
        "col_patches": "依赖的图块", "col_text": "依赖的文字位置",
        "designs": {"decoder-only": "只有解码器", "encoder-decoder": "编码器-解码器"},
        "sub": {"self": "自注意力", "cross": "交叉注意力", "ff1": "前馈"},
        "col_design": "设计", "col_kind": "块的种类", "col_sub": "子层", "col_params": "每块参数", "col_count": "块数",
        "row_img": "图像前缀：图块 {k}", "row_txt": "文本：{k}（{c}）", "row_out": "{i}（{c}）",
    },
    "en": {
        "stages": ("① tokenize", "② embed", "③ N masked blocks", "④ final norm", "⑤ logits", "⑥ sample", "⑦ loop"),
        "stage": "stage ", "pos": "position", "dim": "dimension", "vocab": "vocabulary", "step": "loop step",
        "ids": "character ids", "prob": "probabilities at the last position (T = {t:g}), picked {c}",
        "loop": "each step appends the sampled character and recomputes everything from stage ②",
        "machines": {"encoder": "encoder (full)", "decoder": "decoder (causal)", "encoder-decoder": "encoder-decoder (causal + cross)"},
        "mask": "stage ③ masks", "xtitle": "prompt {p} | source {s}", "dep": "measured dependence", "out": "output position",
        "col_stage": "stage", "col_name": "name", "col_shape": "shape", "col_glimpse": "first values",
        "reads": "output {i} ({c}) reads", "none": "—", "source": "source ",
        "patch": "patch ", "image": "the toy image and its patches", "row_kind": "row", "img": "image prefix", "txt": "text",
        "col_patches": "patches it depends on", "col_text": "text positions it depends on",
        "designs": {"decoder-only": "decoder-only", "encoder-decoder": "encoder-decoder"},
        "sub": {"self": "self-attention", "cross": "cross-attention", "ff1": "feed-forward"},
        "col_design": "design", "col_kind": "block kind", "col_sub": "sub-layers", "col_params": "parameters per block",
        "col_count": "blocks",
        "row_img": "image prefix: patch {k}", "row_txt": "text: {k} ({c})", "row_out": "{i} ({c})",
    },
}


def _show(c):
    return "␣" if c == " " else c


def _axis(ticks, title, *, reverse=False, n=None):
    n = len(ticks) if n is None else n
    return {"tickvals": list(range(len(ticks))), "ticktext": list(ticks), "title": {"text": title},
            "range": [n - 0.5, -0.5] if reverse else [-0.5, n - 0.5], "autorange": False}


def stage_stepper(stages, probs, vocab, *, temperature, lang=None):
    """Draw each stage's real array as a heatmap; a slider steps through the seven stages.

    stages: the seven (name, array) records of primer.pipeline.run; probs: stage 6's distribution.
    """
    t = TEXT[page_lang(lang)]
    arr = {s.name: s.array for s in stages}
    ids = arr["tokenize"]
    chars = [_show(vocab[i]) for i in ids]
    pos = [f"{i} {c}" for i, c in enumerate(chars)]
    fig = go.Figure()
    steps = []

    def add(values, mask, layout, **kw):
        start = len(fig.data)
        for trace in heatmap_traces(values, mask, x=range(np.shape(values)[1]), y=range(np.shape(values)[0]), **kw):
            fig.add_trace(trace)
        steps.append((len(steps) + 1, [start, start + 1], layout))

    def title(k, shape, extra=""):
        return {"title.text": f"{t['stages'][k]} · {'×'.join(map(str, shape))}" + (f" · {extra}" if extra else "")}

    # 1 tokenize: one row of ids
    add(ids[None, :].astype(float), np.ones((1, ids.size), bool),
        {**title(0, ids.shape, t["ids"]), "xaxis": _axis(chars, t["pos"]), "yaxis": _axis([""], "", reverse=True), "shapes": []},
        fmt="{:.0f}", colorscale="Blues", zmin=-10, zmax=len(vocab))
    # 2-4 arrays of width d
    for k, name in ((1, "embed"), (2, "blocks"), (3, "final_norm")):
        a = arr[name]
        lim = float(np.abs(a).max())
        add(a, np.ones(a.shape, bool),
            {**title(k, a.shape), "xaxis": _axis([str(j) for j in range(a.shape[1])], t["dim"]),
             "yaxis": _axis(pos, t["pos"], reverse=True), "shapes": []},
            fmt="{:.1f}", colorscale="RdBu", zmin=-lim, zmax=lim)
    # 5 logits: one row per position, the last row is the one that is sampled
    a = arr["logits"]
    lim = float(np.abs(a).max())
    last = dict(type="rect", x0=-0.5, x1=a.shape[1] - 0.5, y0=a.shape[0] - 1.5, y1=a.shape[0] - 0.5,
                line=dict(color=ACCENT, width=3))
    add(a, np.ones(a.shape, bool),
        {**title(4, a.shape), "xaxis": _axis([_show(c) for c in vocab], t["vocab"]),
         "yaxis": _axis(pos, t["pos"], reverse=True), "shapes": [last]},
        fmt="", colorscale="RdBu", zmin=-lim, zmax=lim)
    # 6 sample: the last row's distribution and the id drawn from it
    pick = int(arr["sample"][0])
    box = dict(type="rect", x0=pick - 0.5, x1=pick + 0.5, y0=-0.5, y1=0.5, line=dict(color=ACCENT, width=3))
    p = np.asarray(probs)[None, :]
    p_text = [[f"{v:.2f}"[1:] if v >= 0.005 else "" for v in p[0]]]   # '.40'; near-zero cells left blank
    add(p, np.ones(p.shape, bool),
        {**title(5, arr["sample"].shape, t["prob"].format(t=temperature, c=f"'{_show(vocab[pick])}' = {pick}")),
         "xaxis": _axis([_show(c) for c in vocab], t["vocab"]), "yaxis": _axis([""], "", reverse=True), "shapes": [box]},
        fmt="{:.2f}", colorscale="Blues", zmin=0, zmax=1)
    fig.data[-2].text = p_text
    # 7 loop: the sequence before each step; -1 is not written yet
    g = arr["loop"]
    n0 = ids.size
    kind = np.where(g < 0, 0.0, np.where(np.arange(g.shape[1]) < n0, 1.0, 2.0))
    for k in range(1, g.shape[0]):
        kind[k, n0 + k - 1] = 3.0
    text = [[_show(vocab[v]) if v >= 0 else "" for v in row] for row in g]
    start = len(fig.data)
    fig.add_trace(go.Heatmap(z=np.where(g < 0, np.nan, kind).tolist(), text=text, texttemplate="%{text}",
                             x=list(range(g.shape[1])), y=list(range(g.shape[0])), xgap=2, ygap=2, showscale=False,
                             zmin=1, zmax=3, colorscale=[[0, "#cfe2f3"], [0.5, "#9fc5e8"], [1, ACCENT]],
                             hovertemplate="%{y}, %{x}: %{text}<extra></extra>"))
    fig.add_trace(go.Heatmap(z=np.where(g < 0, 1.0, np.nan).tolist(), x=list(range(g.shape[1])), y=list(range(g.shape[0])),
                             xgap=2, ygap=2, showscale=False, colorscale=[[0, CLOSED_COLOR], [1, CLOSED_COLOR]], hoverinfo="skip"))
    steps.append((7, [start, start + 1],
                  {**title(6, g.shape, t["loop"]), "xaxis": _axis([str(j) for j in range(g.shape[1])], t["pos"]),
                   "yaxis": _axis([str(k) for k in range(g.shape[0])], t["step"], reverse=True), "shapes": []}))
    fig.update_xaxes(color=MUTED)
    styled(fig, height=480, title=" ")
    fig.update_layout(margin=dict(l=70, r=20, t=60, b=60))
    add_control(fig, steps, kind="slider", prefix=t["stage"])
    return fig


def stage_table(stages, vocab, *, lang=None):
    """Return a Markdown table of the seven stages: name, shape and the first values of the first row."""
    t = TEXT[page_lang(lang)]
    rows = []
    for k, s in enumerate(stages):
        a = np.asarray(s.array)
        first = a.ravel()[:4] if a.ndim == 1 else a[0].ravel()[:4]
        if np.issubdtype(a.dtype, np.integer):
            glimpse = ", ".join(str(int(v)) for v in first)
            if s.name in ("tokenize", "sample"):
                glimpse += " = '" + "".join(_show(vocab[int(v)]) for v in first) + "'"
        else:
            glimpse = ", ".join(f"{v:.2f}" for v in first)
        rows.append([t["stages"][k], f"`{s.name}`", "×".join(map(str, a.shape)), glimpse + " …" * (a.size > 4)])
    return md_table([t["col_stage"], t["col_name"], t["col_shape"], t["col_glimpse"]], rows)


def swap_figure(masks, deps, text, source, *, lang=None):
    """Draw stage 3's masks and the measured dependence side by side; buttons switch the machine.

    masks[machine] and deps[machine] are [n, n + m] bool: text columns, then source columns.
    """
    t = TEXT[page_lang(lang)]
    n, m = len(text), len(source)
    x = [_show(c) for c in text] + [_show(c) for c in source]
    y = [f"{i} {_show(c)}" for i, c in enumerate(text)]
    fig = make_subplots(rows=1, cols=2, subplot_titles=(t["mask"], t["dep"]), horizontal_spacing=0.08)
    steps = []
    for name in masks:
        start = len(fig.data)
        for col, grid in ((1, masks[name]), (2, deps[name])):
            for trace in heatmap_traces(np.ones((n, n + m)), grid, x=range(n + m), y=range(n), fmt="●", closed_text="",
                                        colorscale=[[0, "#1f77b4"], [1, "#1f77b4"]]):
                trace.update(hovertemplate=None, hoverinfo="skip")
                fig.add_trace(trace, row=1, col=col)
        steps.append((t["machines"][name], list(range(start, start + 4)), None))
    for col in (1, 2):
        fig.update_xaxes(tickvals=list(range(n + m)), ticktext=x, row=1, col=col,
                         title=t["xtitle"].format(p=f"'{text}'", s=f"'{source}'"))
        fig.update_yaxes(tickvals=list(range(n)), ticktext=y, autorange="reversed", row=1, col=col)
        fig.add_vline(x=n - 0.5, line=dict(color=ACCENT, width=2, dash="dot"), row=1, col=col)
    fig.update_yaxes(showticklabels=False, row=1, col=2)
    styled(fig, height=380)
    add_control(fig, steps, kind="buttons", active=1)
    return fig


def _ranges(cols):
    """Format sorted column indices as ranges: [0, 1, 2, 5] -> '0–2, 5'."""
    out, start = [], None
    for k, c in enumerate(cols):
        if start is None:
            start = c
        if k + 1 == len(cols) or cols[k + 1] != c + 1:
            out.append(str(start) if start == c else f"{start}–{c}")
            start = None
    return ", ".join(out)


def reads(dep_row, n, *, lang=None):
    """Describe one dependence row: text positions it reads, then source positions, e.g. '0–3 + source 0–6'."""
    t = TEXT[page_lang(lang)]
    row = np.asarray(dep_row, bool)
    text = _ranges([j for j in range(n) if row[j]])
    src = _ranges([j - n for j in range(n, row.size) if row[j]])
    parts = [text or t["none"]] + ([t["source"] + src] if src else [])
    return " + ".join(parts)


def dependence_table(deps, text, *, lang=None):
    """Return a Markdown table: for each output position, the inputs it depends on under each machine."""
    t = TEXT[page_lang(lang)]
    n = len(text)
    head = [t["out"]] + [t["machines"][name] for name in deps]
    rows = [[t["row_out"].format(i=i, c=_show(c))] + [reads(deps[name][i], n, lang=lang) for name in deps] for i, c in enumerate(text)]
    return md_table(head, rows)


def prefix_table(dep, n_patches, text, *, lang=None):
    """Return a Markdown table: each row of [image patches; text], the patches and text positions its output depends on."""
    t = TEXT[page_lang(lang)]
    dep = np.asarray(dep, bool)
    rows = []
    for i in range(dep.shape[0]):
        label = (t["row_img"].format(k=i) if i < n_patches
                 else t["row_txt"].format(k=i - n_patches, c=_show(text[i - n_patches])))
        patches = _ranges([j for j in range(n_patches) if dep[i, j]]) or t["none"]
        chars = _ranges([j - n_patches for j in range(n_patches, dep.shape[1]) if dep[i, j]]) or t["none"]
        rows.append([label, patches, chars])
    return md_table([t["row_kind"], t["col_patches"], t["col_text"]], rows)


def prefix_figure(image, dep, n_patches, text, *, lang=None):
    """Draw the toy image cut into patches, and the measured dependence of every row of [patches; text]."""
    t = TEXT[page_lang(lang)]
    dep = np.asarray(dep, bool)
    labels = [f"{t['patch']}{i}" for i in range(n_patches)] + [f"{i} {_show(c)}" for i, c in enumerate(text)]
    fig = make_subplots(rows=1, cols=2, column_widths=[0.36, 0.64], horizontal_spacing=0.1,
                        subplot_titles=(t["image"], t["dep"]))
    img = np.asarray(image)
    fig.add_trace(go.Heatmap(z=img.tolist(), colorscale="Greys", showscale=False, xgap=1, ygap=1,
                             hovertemplate="%{z:.2f}<extra></extra>"), row=1, col=1)
    side = img.shape[0]
    g = int(round(n_patches ** 0.5))
    step = side // g
    for k in range(n_patches):
        r, c = divmod(k, g)
        fig.add_annotation(x=c * step + (step - 1) / 2, y=r * step + (step - 1) / 2, text=f"<b>{t['patch']}{k}</b>", showarrow=False,
                           bgcolor="rgba(255,255,255,0.85)", font=dict(color=ACCENT, size=13), row=1, col=1)
    for v in range(step, side, step):
        edge = dict(type="line", line=dict(color=ACCENT, width=2), row=1, col=1)
        fig.add_shape(x0=v - 0.5, x1=v - 0.5, y0=-0.5, y1=side - 0.5, **edge)
        fig.add_shape(x0=-0.5, x1=side - 0.5, y0=v - 0.5, y1=v - 0.5, **edge)
    for trace in heatmap_traces(np.ones(dep.shape), dep, x=range(len(labels)), y=range(len(labels)), fmt="●",
                                closed_text="", colorscale=[[0, "#1f77b4"], [1, "#1f77b4"]]):
        trace.update(hovertemplate=None, hoverinfo="skip")
        fig.add_trace(trace, row=1, col=2)
    fig.update_yaxes(autorange="reversed", showticklabels=False, row=1, col=1)
    fig.update_xaxes(showticklabels=False, row=1, col=1)
    fig.update_xaxes(tickvals=list(range(len(labels))), ticktext=labels, row=1, col=2)
    fig.update_yaxes(tickvals=list(range(len(labels))), ticktext=labels, autorange="reversed", row=1, col=2)
    fig.add_vline(x=n_patches - 0.5, line=dict(color=ACCENT, width=2, dash="dot"), row=1, col=2)
    fig.add_hline(y=n_patches - 0.5, line=dict(color=ACCENT, width=2, dash="dot"), row=1, col=2)
    fig.update_layout(yaxis=dict(scaleanchor="x"))
    return styled(fig, height=420)


def block_kinds_table(kinds, *, lang=None):
    """Return a Markdown table of each design's kinds of block: sub-layers, parameters per block, how many."""
    t = TEXT[page_lang(lang)]
    rows = []
    for design, entries in kinds.items():
        for k, (subs, n_params, count) in enumerate(entries):
            rows.append([t["designs"][design], k + 1, " + ".join(t["sub"][s] for s in subs), f"{n_params:,}", count])
    return md_table([t["col_design"], t["col_kind"], t["col_sub"], t["col_params"], t["col_count"]], rows)

"""Figures and tables of the chapter "One knob, three machines": masks, measured reads, shapes, choices."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures._style import ACCENT, MUTED, add_control, heatmap_traces, page_lang, styled
from primer.figures.tables import md_table

TEXT = {
    "zh": {
        "machine": {"encoder": "编码器（无掩码）", "decoder": "解码器（因果掩码）",
                    "encoder-decoder": "编码器-解码器（因果 + 交叉）"},
        "kind": {"encoder": "仅编码器", "decoder": "仅解码器", "encoder-decoder": "编码器-解码器"},
        "self_mask": "旋钮：自注意力掩码", "cross_mask": "交叉注意力掩码",
        "moved_own": "实测：改 token j 之后，<br>输出 i 动了多少", "moved_src": "实测：改源 token j 之后，<br>输出 i 动了多少",
        "no_cross": "没有交叉注意力", "q": "查询 ", "k": "键 ", "src": "源 ", "out": "输出 ", "tok": "token ",
        "enc_self": "编码器自注意力", "dec_self": "解码器自注意力", "cross": "交叉注意力", "none": "没有这一部分",
        "params": "参数量（百万）", "layers": "层", "width": "宽度", "heads": "头", "vocab": "词表",
        "computed": "算出", "published": "公布", "diff": "相差",
        "parts": {"token_embeddings": "token 嵌入", "positions": "位置 / 段落嵌入、相对位置偏置",
                  "attention": "注意力权重 Q K V O", "feed_forward": "前馈权重", "biases": "稠密层偏置",
                  "norms": "归一化层", "pooler": "池化层（pooler）", "output_head": "输出层（不绑定时）"},
        "output": {"label": "一个标签", "span": "输入里的一段", "text": "自由文本", "translation": "翻译"},
        "examples": {
            "label": ["这部", "电影", "真", "好看"],
            "span": ["谁", "写了", "《呐喊》", "？", "作者", "是", "鲁迅"],
            "text": ["从前", "有", "座", "山"],
            "translation": (["the", "cat", "sleeps"], ["猫", "在", "睡觉"]),
        },
        "reads": {"label": "输出：整句一个类别（取第一个位置的向量）", "span": "输出：每个输入位置一个起点分数和一个终点分数",
                  "text": "输出：每个位置预测下一个 token，一个接一个写下去", "translation": "输出：逐个写出译文，每一步都读完整的原句"},
        "answer": "写新 token？{w} · 读一份独立的完整输入？{s} → {k}（例：{e}）",
        "yes": "是", "no": "否",
        "cols_f8": ["模型", "架构", "层数", "宽度", "算出", "公布", "相差", "出处"],
        "cols_parts": ["部分"], "total": "合计",
        "cols_w18": ["设置", "自注意力掩码", "交叉掩码", "掩码打开的格子", "实测会动的格子", "两者逐格一致"],
        "cols_w20": ["输出的形状", "要写新 token？", "要读一份独立的完整输入？", "架构", "例子"],
        "full": "全开", "causal": "下三角", "rect": "全开的矩形", "absent": "—",
    },
    "en": {
        "machine": {"encoder": "encoder (no mask)", "decoder": "decoder (causal)",
                    "encoder-decoder": "encoder-decoder (causal + cross)"},
        "kind": {"encoder": "encoder-only", "decoder": "decoder-only", "encoder-decoder": "encoder-decoder"},
        "self_mask": "the knob: self-attention mask", "cross_mask": "cross-attention mask",
        "moved_own": "measured: change token j,<br>how far does output i move?",
        "moved_src": "measured: change source token j,<br>how far does output i move?",
        "no_cross": "no cross-attention", "q": "query ", "k": "key ", "src": "source ", "out": "output ", "tok": "token ",
        "enc_self": "encoder self-attention", "dec_self": "decoder self-attention", "cross": "cross-attention",
        "none": "not in this model",
        "params": "parameters (millions)", "layers": "layers", "width": "width", "heads": "heads", "vocab": "vocab",
        "computed": "computed", "published": "published", "diff": "difference",
        "parts": {"token_embeddings": "token embeddings", "positions": "position / segment embeddings, relative bias",
                  "attention": "attention weights Q K V O", "feed_forward": "feed-forward weights",
                  "biases": "dense-layer biases", "norms": "norm layers", "pooler": "pooler",
                  "output_head": "output layer (if untied)"},
        "output": {"label": "a label", "span": "a span of the input", "text": "free text", "translation": "a translation"},
        "examples": {
            "label": ["the", "film", "was", "great"],
            "span": ["who", "wrote", "it", "?", "Lu", "Xun", "did"],
            "text": ["once", "upon", "a", "time"],
            "translation": (["le", "chat", "dort"], ["the", "cat", "sleeps"]),
        },
        "reads": {"label": "output: one class for the whole input (read off the first position)",
                  "span": "output: a start score and an end score for every input position",
                  "text": "output: every position predicts the next token, written one at a time",
                  "translation": "output: the translation, token by token, each step reading the whole source"},
        "answer": "writes new tokens? {w} · reads a separate, complete input? {s} → {k} (e.g. {e})",
        "yes": "yes", "no": "no",
        "cols_f8": ["model", "architecture", "layers", "width", "computed", "published", "difference", "source"],
        "cols_parts": ["part"], "total": "total",
        "cols_w18": ["setting", "self-attention mask", "cross mask", "cells the mask opens", "cells that move when measured",
                     "same cells"],
        "cols_w20": ["shape of the output", "writes new tokens?", "reads a separate, complete input?", "architecture",
                     "example"],
        "full": "all open", "causal": "lower triangle", "rect": "all-open rectangle", "absent": "—",
    },
}

MASK_OPEN = [[0, "#bbdefb"], [1, "#bbdefb"]]


def millions(n):
    """Format a parameter count in millions: 109482240 -> '109.48 M'."""
    return f"{n / 1e6:.2f} M"


def _count(n):
    """Format a part's count: millions when large, the exact number when small."""
    return millions(n) if n >= 1_000_000 else f"{n:,}"


def signed_pct(x, digits=2):
    """Format a signed fraction as a percentage with a real minus sign: -0.0047 -> '−0.47 %'."""
    text = f"{100 * float(x):+.{digits}f} %"
    return text.replace("-", "−")


def example_tokens(output, *, lang=None):
    """Return the (input, output) tokens the figure labels for an output shape; the same list twice if one sequence."""
    ex = TEXT[page_lang(lang)]["examples"][output]
    return ex if isinstance(ex, tuple) else (ex, ex)


def _mask_traces(mask, x, y):
    return heatmap_traces(np.zeros(np.shape(mask)), mask, x=x, y=y, fmt="{:.0f}", colorscale=MASK_OPEN)


def _panel_note(fig, row, col, text):
    """Return an annotation centred on one subplot (used where a panel is empty in some states)."""
    ref = fig.get_subplot(row, col)
    xd, yd = ref.xaxis.domain, ref.yaxis.domain
    return dict(x=(xd[0] + xd[1]) / 2, y=(yd[0] + yd[1]) / 2, xref="paper", yref="paper", text=text,
                showarrow=False, font=dict(color=MUTED, size=14))


def _axis_names(fig, row, col):
    ref = fig.get_subplot(row, col)
    return ref.xaxis.plotly_name, ref.yaxis.plotly_name


def one_knob(states, *, lang=None):
    """Draw, for each knob setting, its masks and the measured reads of the real block; buttons switch.

    states: list of (machine, self_mask, cross_mask or None, moved_own, moved_src or None).
    """
    t = TEXT[page_lang(lang)]
    fig = make_subplots(rows=2, cols=2, subplot_titles=(t["self_mask"], t["cross_mask"], t["moved_own"], t["moved_src"]),
                        horizontal_spacing=0.12, vertical_spacing=0.16, column_widths=[0.55, 0.45])
    titles = list(fig.layout.annotations)
    steps = []
    for machine, self_mask, cross_mask, moved_own, moved_src in states:
        n = len(self_mask)
        vmax = max(float(np.max(moved_own)), 0.0 if moved_src is None else float(np.max(moved_src)))
        q, k = [f"{t['q']}{i}" for i in range(n)], [f"{t['k']}{j}" for j in range(n)]
        out, tok = [f"{t['out']}{i}" for i in range(n)], [f"{t['tok']}{j}" for j in range(n)]
        shown = []
        panels = [(1, 1, _mask_traces(self_mask, k, q))]
        panels.append((2, 1, heatmap_traces(moved_own, moved_own > 0, x=tok, y=out, fmt="{:.1f}", closed_text="0",
                                            zmin=0, zmax=vmax)))
        if cross_mask is not None:
            m = cross_mask.shape[1]
            src = [f"{t['src']}{j}" for j in range(m)]
            panels.append((1, 2, _mask_traces(cross_mask, src, q)))
            panels.append((2, 2, heatmap_traces(moved_src, moved_src > 0, x=src, y=out, fmt="{:.1f}", closed_text="0",
                                                zmin=0, zmax=vmax)))
        for row, col, traces in panels:
            for trace in traces:
                fig.add_trace(trace, row=row, col=col)
                shown.append(len(fig.data) - 1)
        layout = {"annotations": titles}
        has_cross = cross_mask is not None
        for row in (1, 2):
            xa, ya = _axis_names(fig, row, 2)
            layout[f"{xa}.visible"] = has_cross
            layout[f"{ya}.visible"] = has_cross
        if not has_cross:
            layout["annotations"] = titles + [_panel_note(fig, 1, 2, t["no_cross"]), _panel_note(fig, 2, 2, t["no_cross"])]
        steps.append((t["machine"][machine], shown, layout))
    fig.update_yaxes(autorange="reversed")
    add_control(fig, steps, kind="buttons", y=1.08)
    return styled(fig, height=640)


def _three_masks(fig, enc, dec, cross, t, x_labels):
    """Add up to three mask panels (row 1); return (trace indices, layout changes) for this state."""
    shown, layout, notes = [], {}, []
    for col, mask, (xl, yl) in ((1, enc, x_labels[0]), (2, dec, x_labels[1]), (3, cross, x_labels[2])):
        xa, ya = _axis_names(fig, 1, col)
        layout[f"{xa}.visible"] = mask is not None
        layout[f"{ya}.visible"] = mask is not None
        if mask is None:
            notes.append(_panel_note(fig, 1, col, t["none"]))
            continue
        for trace in _mask_traces(mask, xl, yl):
            fig.add_trace(trace, row=1, col=col)
            shown.append(len(fig.data) - 1)
    return shown, layout, notes


def model_picker(models, *, lang=None):
    """Draw a model's masks and where its parameters are; buttons pick the model.

    models: list of dicts with name, shape (a primer.params.Shape), parts ({part: count}), total,
    published, difference, masks (encoder self, decoder self, cross; None where absent).
    """
    t = TEXT[page_lang(lang)]
    fig = make_subplots(rows=2, cols=3, specs=[[{}, {}, {}], [{"colspan": 3}, None, None]],
                        subplot_titles=(t["enc_self"], t["dec_self"], t["cross"], ""),
                        row_heights=[0.5, 0.5], vertical_spacing=0.2, horizontal_spacing=0.08)
    titles = [a for a in fig.layout.annotations if a.text]
    xmax = max(max(m["parts"].values()) for m in models) / 1e6 * 1.7
    steps = []
    for m in models:
        shape = m["shape"]
        enc, dec, cross = m["masks"]
        n_src = len(enc) if enc is not None else 0
        n_tgt = len(dec) if dec is not None else 0
        keys_src, keys_tgt = [f"{t['k']}{j}" for j in range(n_src)], [f"{t['k']}{j}" for j in range(n_tgt)]
        q_src, q_tgt = [f"{t['q']}{i}" for i in range(n_src)], [f"{t['q']}{i}" for i in range(n_tgt)]
        labels = [(keys_src, q_src), (keys_tgt, q_tgt), ([f"{t['src']}{j}" for j in range(n_src)], q_tgt)]
        shown, layout, notes = _three_masks(fig, enc, dec, cross, t, labels)
        parts = list(m["parts"])
        values = [m["parts"][p] / 1e6 for p in parts]
        fig.add_trace(go.Bar(x=values, y=[t["parts"][p] for p in parts], orientation="h", marker_color=ACCENT,
                             text=[f"{t['parts'][p]}: {_count(m['parts'][p])}" for p in parts], textposition="outside",
                             cliponaxis=False, hovertemplate="%{y}: %{x:.3f} M<extra></extra>"), row=2, col=1)
        shown.append(len(fig.data) - 1)
        layers = (f"{shape.encoder_layers} + {shape.decoder_layers}" if shape.kind == "encoder-decoder"
                  else str(shape.encoder_layers or shape.decoder_layers))
        summary = (f"<b>{m['name']}</b> · {t['kind'][shape.kind]} · {t['layers']} {layers} · {t['width']} {shape.d_model}"
                   f" · {t['heads']} {shape.n_heads} · {t['vocab']} {shape.vocab_size}<br>"
                   f"{t['computed']} {millions(m['total'])} · {t['published']} ~{m['published'] // 1_000_000} M"
                   f" · {t['diff']} {signed_pct(m['difference'])}")
        ref = fig.get_subplot(2, 1)
        notes.append(dict(x=0, y=ref.yaxis.domain[1] + 0.04, xref="paper", yref="paper", xanchor="left",
                          yanchor="bottom", align="left", text=summary, showarrow=False))
        layout["annotations"] = titles + notes
        steps.append((m["name"], shown, layout))
    fig.update_yaxes(autorange="reversed", row=1)
    fig.update_yaxes(autorange="reversed", row=2, col=1)
    fig.update_xaxes(range=[0, xmax], title=t["params"], row=2, col=1)
    fig.update_layout(showlegend=False)
    add_control(fig, steps, kind="buttons", y=1.1)
    fig.update_yaxes(showticklabels=False, row=2, col=1)
    styled(fig, height=720)
    fig.update_layout(margin=dict(t=90))
    return fig


def output_picker(choices, masks_by_output, *, lang=None):
    """Draw, for each shape of output, the architecture it calls for and that machine's masks; a dropdown picks.

    choices: list of primer.architectures.Choice; masks_by_output: output -> (enc, dec, cross) masks.
    """
    t = TEXT[page_lang(lang)]
    fig = make_subplots(rows=1, cols=3, subplot_titles=(t["enc_self"], t["dec_self"], t["cross"]),
                        horizontal_spacing=0.1)
    titles = list(fig.layout.annotations)
    steps = []
    for c in choices:
        src, tgt = example_tokens(c.output, lang=lang)
        labels = [(src, src), (tgt, tgt), (src, tgt)]
        shown, layout, notes = _three_masks(fig, *masks_by_output[c.output], t, labels)
        yn = lambda b: t["yes"] if b else t["no"]  # noqa: E731
        answer = t["answer"].format(w=yn(c.writes_tokens), s=yn(c.reads_separate_input),
                                    k=f"<b>{t['kind'][c.machine]}</b>", e=c.example)
        notes.append(dict(x=0, y=-0.2, xref="paper", yref="paper", xanchor="left", yanchor="top", align="left",
                          text=answer + "<br>" + t["reads"][c.output], showarrow=False))
        layout["annotations"] = titles + notes
        steps.append((t["output"][c.output], shown, layout))
    fig.update_yaxes(autorange="reversed")
    add_control(fig, steps, kind="dropdown", y=1.14)
    styled(fig, height=460)
    fig.update_layout(margin=dict(b=120, t=90))
    return fig


# ---- tables -----------------------------------------------------------------------------------

def params_table(models, *, lang=None):
    """Return the Markdown table of parameter counts: shape, computed and published parameters, relative difference."""
    t = TEXT[page_lang(lang)]
    rows = []
    for m in models:
        s = m["shape"]
        layers = (f"{s.encoder_layers} + {s.decoder_layers}" if s.kind == "encoder-decoder"
                  else str(s.encoder_layers or s.decoder_layers))
        rows.append([m["name"], t["kind"][s.kind], layers, s.d_model, millions(m["total"]),
                     f"~{m['published'] // 1_000_000} M",
                     signed_pct(m["difference"]), m["source"]])
    return md_table(t["cols_f8"], rows)


def parts_table(models, *, lang=None):
    """Return a Markdown table of where each model's parameters are, one part per row."""
    t = TEXT[page_lang(lang)]
    head = t["cols_parts"] + [m["name"] for m in models]
    parts = list(models[0]["parts"])
    rows = [[t["parts"][p]] + [f"{m['parts'][p]:,}" for m in models] for p in parts]
    rows.append([f"**{t['total']}**"] + [f"**{m['total']:,}**" for m in models])
    return md_table(head, rows)


def knob_table(states, *, lang=None):
    """Return a Markdown table: per knob setting, the cells its masks open and the cells that moved when measured."""
    t = TEXT[page_lang(lang)]
    rows = []
    for machine, self_mask, cross_mask, moved_own, moved_src in states:
        opened = int(self_mask.sum()) + (0 if cross_mask is None else int(cross_mask.sum()))
        moved = int((moved_own > 0).sum()) + (0 if moved_src is None else int((moved_src > 0).sum()))
        same = np.array_equal(moved_own > 0, self_mask) and (
            cross_mask is None or np.array_equal(moved_src > 0, cross_mask))
        kind = t["full"] if self_mask.all() else t["causal"]
        rows.append([t["machine"][machine], kind, t["absent"] if cross_mask is None else t["rect"], opened, moved,
                     "✓" if same else "✗"])
    return md_table(t["cols_w18"], rows)


def choice_table(choices, *, lang=None):
    """Return a Markdown table of the rule: output shape -> the two answers -> architecture."""
    t = TEXT[page_lang(lang)]
    yn = lambda b: t["yes"] if b else t["no"]  # noqa: E731
    rows = [[t["output"][c.output], yn(c.writes_tokens), yn(c.reads_separate_input), t["kind"][c.machine], c.example]
            for c in choices]
    return md_table(t["cols_w20"], rows)

"""Figures and tables of the chapter "One knob, three machines": masks, measured reads, shapes, choices."""

from textwrap import wrap

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures.controls import add_control, finish
from primer.figures.look import ACCENT, MUTED, PHONE_GAP, heatmap_traces, on_subplot, phone_layout, pin_titles, styled
from primer.figures.tables import cite, integer, md_table, pct
from primer.language import labels
from primer.rounding import BOUND

MASK_OPEN = [[0, "#bbdefb"], [1, "#bbdefb"]]


def millions(n, lang=None):
    """Format a parameter count in millions: 109482240 -> '109.48 M' ('109.48M' in Chinese)."""
    return labels("choosing", lang)["millions"].format(m=f"{n / 1e6:.2f}")


def about_millions(n, lang=None):
    """Format a published, rounded count: 110000000 -> '~110 M' ('约 110M' in Chinese)."""
    return labels("choosing", lang)["about"].format(m=n // 1_000_000)


def _count(n, lang=None):
    """Format a part's count: millions when large, the exact number when small."""
    return millions(n, lang) if n >= 1_000_000 else integer(n, lang)


def signed_pct(x, digits=2):
    """Format a signed fraction as a percentage with a real minus sign: -0.0047 -> '−0.47%'."""
    text = f"{100 * float(x):+.{digits}f}%"
    return text.replace("-", "−")


def example_tokens(output, *, lang=None):
    """Return the (input, output) tokens the figure labels for an output shape; the same list twice if one sequence."""
    ex = labels("choosing", lang)["examples"][output]
    return ex["input"], ex.get("output", ex["input"])


def _mask_traces(mask, x, y):
    return heatmap_traces(np.zeros(np.shape(mask)), mask, x=x, y=y, fmt="{:.0f}", colorscale=MASK_OPEN)


def _panel_note(fig, row, col, text):
    """Return an annotation centred on one subplot (used where a panel is empty in some states)."""
    note = dict(text=text, showarrow=False, font=dict(color=MUTED, size=14))
    return on_subplot(note, *_axis_names(fig, row, col), x=0.5, y=0.5)


def _axis_names(fig, row, col):
    ref = fig.get_subplot(row, col)
    return ref.xaxis.plotly_name, ref.yaxis.plotly_name


def one_knob(states, *, lang=None):
    """Draw, for each knob setting, its masks and the measured reads of the real block; buttons switch.

    states: list of (machine, self_mask, cross_mask or None, moved_own, moved_src or None).
    """
    text = labels("choosing", lang)
    fig = make_subplots(
        rows=2,
        cols=2,
        subplot_titles=(text["self_mask"], text["cross_mask"], text["moved_own"], text["moved_src"]),
        horizontal_spacing=0.12,
        vertical_spacing=0.16,
        column_widths=[0.55, 0.45],
    )
    titles = pin_titles(fig, [(1, 1), (1, 2), (2, 1), (2, 2)])
    fig.update_layout(annotations=titles)
    steps = []
    for machine, self_mask, cross_mask, moved_own, moved_src in states:
        n = len(self_mask)
        vmax = max(float(np.max(moved_own)), 0.0 if moved_src is None else float(np.max(moved_src)))
        q, k = [f"{text['q']}{i}" for i in range(n)], [f"{text['k']}{j}" for j in range(n)]
        out, tok = [f"{text['out']}{i}" for i in range(n)], [f"{text['tok']}{j}" for j in range(n)]
        shown = []
        panels = [(1, 1, _mask_traces(self_mask, k, q))]
        panels.append(
            (
                2,
                1,
                heatmap_traces(
                    moved_own, moved_own > BOUND, x=tok, y=out, fmt="{:.1f}", closed_text="0", zmin=0, zmax=vmax
                ),
            )
        )
        if cross_mask is not None:
            m = cross_mask.shape[1]
            src = [f"{text['src']}{j}" for j in range(m)]
            panels.append((1, 2, _mask_traces(cross_mask, src, q)))
            panels.append(
                (
                    2,
                    2,
                    heatmap_traces(
                        moved_src, moved_src > BOUND, x=src, y=out, fmt="{:.1f}", closed_text="0", zmin=0, zmax=vmax
                    ),
                )
            )
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
            layout["annotations"] = titles + [
                _panel_note(fig, 1, 2, text["no_cross"]),
                _panel_note(fig, 2, 2, text["no_cross"]),
            ]
        steps.append((text["machine"][machine], shown, layout))
    fig.update_yaxes(autorange="reversed")
    add_control(fig, steps, kind="buttons", y=1.08)
    styled(fig, height=640)
    # on a phone one panel a row: the masks, then what was measured
    cells = [(1, 1, 80), (1, 2, PHONE_GAP), (2, 1, PHONE_GAP + 20), (2, 2, PHONE_GAP + 20)]
    return phone_layout(fig, [(*_axis_names(fig, r, c), 200, gap) for r, c, gap in cells], below=40)


def _three_masks(fig, enc, dec, cross, text, x_labels):
    """Add up to three mask panels (row 1); return (trace indices, layout changes) for this state."""
    shown, layout, notes = [], {}, []
    for col, mask, (xl, yl) in ((1, enc, x_labels[0]), (2, dec, x_labels[1]), (3, cross, x_labels[2])):
        xa, ya = _axis_names(fig, 1, col)
        layout[f"{xa}.visible"] = mask is not None
        layout[f"{ya}.visible"] = mask is not None
        if mask is None:
            notes.append(_panel_note(fig, 1, col, text["none"]))
            continue
        for trace in _mask_traces(mask, xl, yl):
            fig.add_trace(trace, row=1, col=col)
            shown.append(len(fig.data) - 1)
    return shown, layout, notes


def model_params(models, *, lang=None):
    """Draw a model's masks and where its parameters are; buttons pick the model.

    models: list of dicts with name, machine, config (a primer.config.Config), parts ({part: count}), total,
    published, difference, masks (encoder self, decoder self, cross; None where absent).
    """
    text = labels("choosing", lang)
    fig = make_subplots(
        rows=2,
        cols=3,
        specs=[[{}, {}, {}], [{"colspan": 3}, None, None]],
        subplot_titles=(text["enc_self"], text["dec_self"], text["cross"], ""),
        row_heights=[0.5, 0.5],
        vertical_spacing=0.2,
        horizontal_spacing=0.08,
    )
    titles = pin_titles(fig, [(1, 1), (1, 2), (1, 3)])
    fig.update_layout(annotations=titles)
    xmax = max(max(m["parts"].values()) for m in models) / 1e6 * 1.7
    steps = []
    for m in models:
        shape, machine = m["config"], m["machine"]
        enc, dec, cross = m["masks"]
        n_src = len(enc) if enc is not None else 0
        n_tgt = len(dec) if dec is not None else 0
        keys_src, keys_tgt = [f"{text['k']}{j}" for j in range(n_src)], [f"{text['k']}{j}" for j in range(n_tgt)]
        q_src, q_tgt = [f"{text['q']}{i}" for i in range(n_src)], [f"{text['q']}{i}" for i in range(n_tgt)]
        axes = [(keys_src, q_src), (keys_tgt, q_tgt), ([f"{text['src']}{j}" for j in range(n_src)], q_tgt)]
        shown, layout, notes = _three_masks(fig, enc, dec, cross, text, axes)
        parts = list(m["parts"])
        values = [m["parts"][p] / 1e6 for p in parts]
        fig.add_trace(
            go.Bar(
                x=values,
                y=[text["parts"][p] for p in parts],
                orientation="h",
                marker_color=ACCENT,
                # a long label on two lines: it runs past a phone's plot area otherwise
                text=["<br>".join(wrap(f"{text['parts'][p]}: {_count(m['parts'][p], lang)}", 34)) for p in parts],
                textposition="outside",
                cliponaxis=False,
                hovertemplate="%{y}: %{x:.3f} M<extra></extra>",
            ),
            row=2,
            col=1,
        )
        shown.append(len(fig.data) - 1)
        layers = f"{shape.n_layers} + {shape.n_layers}" if machine == "encoder-decoder" else str(shape.n_layers)
        if m["published"] is None:  # the authors published no total (GPT-1)
            against = text["no_total"]
        else:
            published = about_millions(m["published"], lang)
            against = f"{text['published']} {published} · {text['diff']} {signed_pct(m['difference'])}"
        summary = (
            f"<b>{m['name']}</b> · {text['kind'][machine]} · {text['layers']} {layers}"
            f" · {text['width']} {shape.d_model}"
            f" · {text['heads']} {shape.n_heads} · {text['vocab']} {shape.vocab_size}<br>"
            f"{text['computed']} {millions(m['total'], lang)} · {against}"
        )
        summary_note = dict(xanchor="left", yanchor="bottom", align="left", text=summary, showarrow=False, yshift=10)
        notes.append(on_subplot(summary_note, *_axis_names(fig, 2, 1), x=0, y=1))
        layout["annotations"] = titles + notes
        steps.append((m["name"], shown, layout))
    fig.update_yaxes(autorange="reversed", row=1)
    fig.update_yaxes(autorange="reversed", row=2, col=1)
    fig.update_xaxes(range=[0, xmax], title=text["params"], row=2, col=1)
    fig.update_layout(showlegend=False)
    fig.update_yaxes(showticklabels=False, row=2, col=1)
    finish(fig, steps, kind="buttons", y=1.1, height=720, margin=dict(t=90))
    # on a phone one panel a row: the three masks, then the model's summary and where its parameters are
    panels = [(*_axis_names(fig, 1, c), 190, 40 if c == 1 else PHONE_GAP) for c in (1, 2, 3)]
    return phone_layout(fig, panels + [(*_axis_names(fig, 2, 1), 300, 150)])


def output_machine(choices, masks_by_output, *, lang=None):
    """Draw, for each shape of output, the architecture it calls for and that machine's masks; a dropdown picks.

    choices: list of primer.machines.Choice; masks_by_output: output -> (enc, dec, cross) masks.
    """
    text = labels("choosing", lang)
    fig = make_subplots(
        rows=1, cols=3, subplot_titles=(text["enc_self"], text["dec_self"], text["cross"]), horizontal_spacing=0.1
    )
    titles = pin_titles(fig, [(1, 1), (1, 2), (1, 3)])
    fig.update_layout(annotations=titles)
    steps = []
    for c in choices:
        src, tgt = example_tokens(c.output, lang=lang)
        axes = [(src, src), (tgt, tgt), (src, tgt)]
        shown, layout, notes = _three_masks(fig, *masks_by_output[c.output], text, axes)
        yn = lambda b: text["yes"] if b else text["no"]  # noqa: E731
        answer = text["answer"].format(
            w=yn(c.writes_tokens), s=yn(c.reads_separate_input), k=f"<b>{text['kind'][c.machine]}</b>", e=c.example
        )
        answer_note = dict(
            xanchor="left", yanchor="top", align="left", text=answer + "<br>" + text["reads"][c.output], showarrow=False
        )
        answer_note = on_subplot(answer_note, *_axis_names(fig, 1, 3), x=0, y=0)
        notes.append(dict(answer_note, xref="paper", yshift=-50))  # under the row, from the figure's left
        layout["annotations"] = titles + notes
        steps.append((text["output"][c.output], shown, layout))
    fig.update_yaxes(autorange="reversed")
    finish(fig, steps, kind="dropdown", y=1.14, height=460, margin=dict(b=120, t=90))
    # on a phone one mask a row; the answer stays under the last
    panels = [(*_axis_names(fig, 1, c), 190, 40 if c == 1 else PHONE_GAP) for c in (1, 2, 3)]
    return phone_layout(fig, panels, **{"margin.b": 200})


# ---- tables -----------------------------------------------------------------------------------


def params_table(models, *, lang=None):
    """Return the Markdown table of parameter counts: shape, computed and published parameters, relative difference."""
    text = labels("choosing", lang)
    rows = []
    for m in models:
        s, machine = m["config"], m["machine"]
        layers = f"{s.n_layers} + {s.n_layers}" if machine == "encoder-decoder" else str(s.n_layers)
        rows.append(
            [
                m["name"],
                text["kind"][machine],
                layers,
                s.d_model,
                millions(m["total"], lang),
                text["no_total"] if m["published"] is None else about_millions(m["published"], lang),
                text["absent"] if m["difference"] is None else signed_pct(m["difference"]),
                text["absent"] if m["source"] is None else cite(m["source"], text["released"], text["table"]),
            ]
        )
    return md_table(text["cols_params"], rows)


def gpt2_note(gpt2_total, gpt1_total, vocab, ctx, *, lang=None):
    """Return the line under the parameters table: GPT-2 small counted from its config beside GPT-1's count."""
    text = labels("choosing", lang)
    return text["gpt2_note"].format(
        gpt2=millions(gpt2_total, lang), gpt1=millions(gpt1_total, lang), vocab=vocab, ctx=ctx
    )


def parts_table(models, *, lang=None):
    """Return a Markdown table of where each model's parameters are, one part per row."""
    text = labels("choosing", lang)
    head = text["cols_parts"] + [m["name"] for m in models]
    parts = list(models[0]["parts"])
    rows = [[text["parts"][p]] + [integer(m["parts"][p], lang) for m in models] for p in parts]
    rows.append([f"**{text['total']}**"] + [f"**{integer(m['total'], lang)}**" for m in models])
    return md_table(head, rows)


def knob_table(states, *, lang=None):
    """Return a Markdown table: per knob setting, the cells its masks open and the cells that moved when measured."""
    text = labels("choosing", lang)
    rows = []
    for machine, self_mask, cross_mask, moved_own, moved_src in states:
        opened = int(self_mask.sum()) + (0 if cross_mask is None else int(cross_mask.sum()))
        moved = int((moved_own > BOUND).sum()) + (0 if moved_src is None else int((moved_src > BOUND).sum()))
        same = np.array_equal(moved_own > BOUND, self_mask) and (
            cross_mask is None or np.array_equal(moved_src > BOUND, cross_mask)
        )
        kind = text["full"] if self_mask.all() else text["causal"]
        rows.append(
            [
                text["machine"][machine],
                kind,
                text["absent"] if cross_mask is None else text["rect"],
                opened,
                moved,
                "✓" if same else "✗",
            ]
        )
    return md_table(text["cols_knob"], rows)


def choice_table(choices, *, lang=None):
    """Return a Markdown table of the rule: output shape -> the two answers -> architecture."""
    text = labels("choosing", lang)
    yn = lambda b: text["yes"] if b else text["no"]  # noqa: E731
    rows = [
        [text["output"][c.output], yn(c.writes_tokens), yn(c.reads_separate_input), text["kind"][c.machine], c.example]
        for c in choices
    ]
    return md_table(text["cols_choice"], rows)


def trained_table(machines, n_seeds, *, lang=None):
    """Return a Markdown table of the three trained machines: task, masks, weights, held-out scores over the seeds.

    machines: primer.experiments.trained_machines.side_by_side's; n_seeds: machine -> how many seeds its chapter ran.
    """
    from primer.figures.decoder import fmt_loss, spread  # median (min–max), as chapters 6-8 print them

    text = labels("choosing", lang)
    chapters = {"encoder": 6, "decoder": 7, "encoder-decoder": 8}
    rows = []
    for machine, m in machines.items():
        fmt = fmt_loss if machine == "decoder" else (lambda x: pct(x, 0))
        weights = sorted(set(m["params"]))
        rows.append(
            [
                text["kind"][machine],
                chapters[machine],
                text["task"][machine],
                text["trained_masks"][machine],
                str(weights[0]) if len(weights) == 1 else f"{weights[0]}–{weights[-1]}",
                text["score"][machine].format(v=spread(m["score"], fmt)),
                text["reference"][machine].format(v=spread(m["reference"], fmt)),
            ]
        )
    note = text["trained_note"].format(
        n_enc=n_seeds["encoder"], n_dec=n_seeds["decoder"], n_encdec=n_seeds["encoder-decoder"]
    )
    return md_table(text["cols_trained"], rows) + "\n" + note + "\n"

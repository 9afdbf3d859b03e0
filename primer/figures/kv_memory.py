"""Figures of the chapter "What the cache costs in memory": bytes as the context grows, per model."""

import plotly.graph_objects as go

from primer.figures.look import ACCENT, MUTED, styled
from primer.figures.tables import hover_integer, integer, md_table
from primer.language import labels

GIB = 1024**3


def fill_chart(models, lengths, curve_x, curves, filled, fmt, *, active_model=0, active_length=None, lang=None):
    """Draw KV-cache memory over context length; a dropdown picks the model, a slider the length.

    models: list of (name, max_context, window); curves[m]: bytes at curve_x; filled[m][j]: bytes at lengths[j];
    fmt formats a byte count.
    Every (model, length) state is precomputed: the dropdown swaps in that model's slider.
    """
    text = labels("kv_memory", lang)
    fig = go.Figure()
    n_len = len(lengths)
    per_model = 2 + n_len
    for m, (name, max_ctx, _window) in enumerate(models):
        fig.add_trace(
            go.Scatter(
                x=list(curve_x),
                y=[b / GIB for b in curves[m]],
                mode="lines",
                line=dict(color=MUTED, dash="dash"),
                name=text["curve"].format(m=name),
                hovertemplate="%{x" + hover_integer(lang) + "} → %{y:.3f} GiB<extra></extra>",
            )
        )
        top = max(curves[m]) / GIB
        fig.add_trace(
            go.Scatter(
                x=[max_ctx, max_ctx],
                y=[0, top],
                mode="lines+text",
                line=dict(color="#2ca02c", dash="dot"),
                text=["", text["max"].format(c=integer(max_ctx, lang))],
                textposition="bottom right",
                textfont=dict(color="#2ca02c"),
                name=text["max"].format(c=integer(max_ctx, lang)),
                hoverinfo="skip",
            )
        )
        for j, n in enumerate(lengths):
            xs = [x for x in curve_x if x < n] + [n]
            ys = [b / GIB for x, b in zip(curve_x, curves[m]) if x < n] + [filled[m][j] / GIB]
            fig.add_trace(
                go.Scatter(
                    x=xs,
                    y=ys,
                    mode="lines",
                    fill="tozeroy",
                    line=dict(color=ACCENT, width=3),
                    fillcolor="rgba(232,113,10,0.35)",
                    name=text["filled"],
                    hovertemplate="%{x" + hover_integer(lang) + "} → %{y:.3f} GiB<extra></extra>",
                )
            )

    def visible(m, j):
        shown = {m * per_model, m * per_model + 1, m * per_model + 2 + j}
        return [i in shown for i in range(len(fig.data))]

    def note(m, j):
        name, _, window = models[m]
        line = text["note"].format(m=name, n=integer(lengths[j], lang), b=fmt(filled[m][j]))
        if window is not None and lengths[j] > window:
            line += text["window"].format(w=integer(window, lang))
        return [
            dict(
                text=line,
                x=0,
                xref="paper",
                y=1.01,
                yref="paper",
                xanchor="left",
                yanchor="bottom",
                showarrow=False,
                font=dict(size=15, color=ACCENT),
            )
        ]

    def slider(m, active):
        steps = [
            dict(
                label=integer(n, lang), method="update", args=[{"visible": visible(m, j)}, {"annotations": note(m, j)}]
            )
            for j, n in enumerate(lengths)
        ]
        return dict(active=active, steps=steps, currentvalue=dict(prefix=text["slider"]), pad=dict(t=50))

    j0 = n_len - 1 if active_length is None else active_length
    buttons = [
        dict(
            label=name,
            method="update",
            args=[{"visible": visible(m, j0)}, {"sliders": [slider(m, j0)], "annotations": note(m, j0)}],
        )
        for m, (name, _, _) in enumerate(models)
    ]
    for trace, shown in zip(fig.data, visible(active_model, j0)):
        trace.visible = shown
    fig.update_layout(
        sliders=[slider(active_model, j0)],
        annotations=note(active_model, j0),
        updatemenus=[
            dict(type="dropdown", active=active_model, buttons=buttons, x=0, xanchor="left", y=1.1, yanchor="bottom")
        ],
        showlegend=False,
    )
    fig.update_xaxes(title=text["tokens"], range=[0, max(curve_x)])
    fig.update_yaxes(title=text["gib"], rangemode="tozero")
    styled(fig, height=540)
    fig.update_layout(margin=dict(t=120))
    return fig


def per_token_table(cfg, bytes_per_value, per_token, fmt, *, lang=None):
    """Return the factors of one token's KV cache for a shape (a primer.config.Config), and their product."""
    text = labels("kv_memory_tables", lang)
    rows = [
        [text["kv"], 2],
        [text["layers"], cfg.n_layers],
        [text["kv_heads"], cfg.n_kv_heads],
        [text["head_dim"].format(d=cfg.d_model, h=cfg.n_heads), cfg.d_head],
        [text["bytes"], bytes_per_value],
        [f"**{text['per_token']}**", f"**{fmt(per_token)}** ({integer(per_token, lang)} B)"],
    ]
    return md_table([text["factor"], text["value"]], rows)


def context_table(rows, fmt, *, bold=None, lang=None):
    """Return a Markdown table of (tokens, bytes) rows; the row whose tokens equal bold is set in bold."""
    text = labels("kv_memory_tables", lang)
    out = [[integer(n, lang), f"**{fmt(b)}**" if n == bold else fmt(b)] for n, b in rows]
    return md_table([text["tokens"], text["cache"]], out)


def models_table(rows, fmt, *, lang=None):
    """Return a Markdown table of published models: (name, Config, per-token bytes, bytes at max_len) rows."""
    text = labels("kv_memory_tables", lang)
    out = [
        [
            name + (text["with_window"].format(w=integer(c.window, lang)) if c.window else ""),
            c.n_layers,
            c.n_heads,
            c.n_kv_heads,
            c.d_head,
            fmt(per),
            integer(c.max_len, lang),
            fmt(full),
        ]
        for name, c, per, full in rows
    ]
    return md_table(
        [
            text["model"],
            text["layers"],
            text["q_heads"],
            text["kv_heads"],
            text["hd"],
            text["per_tok"],
            text["max"],
            text["at_max"],
        ],
        out,
    )


def savings_table(rows, fmt, *, lang=None):
    """Return a Markdown table of (kind, fields, bytes without, bytes with) rows; kind is 'gqa' or 'swa'.

    A whole number among the fields (a length, a window) is written as the page's language writes it (integer)."""
    text = labels("kv_memory_tables", lang)
    out = []
    for kind, fields, without, with_ in rows:
        fields = {k: integer(v, lang) if isinstance(v, int) else v for k, v in fields.items()}
        out.append(
            [
                text[kind].format(**fields),
                fmt(without),
                fmt(with_),
                f"1/{without // with_}" if without % with_ == 0 else f"{with_ / without:.2f}",
            ]
        )
    return md_table([text["case"], text["without"], text["with"], text["saved"]], out)


def nbytes_table(rows, *, lang=None):
    """Return a Markdown table of (dtype, tokens, actual nbytes, formula bytes) rows."""
    text = labels("kv_memory_tables", lang)
    out = [[f"`{d}`", n, integer(a, lang), integer(f, lang), "✓" if a == f else "✗"] for d, n, a, f in rows]
    return md_table([text["dtype"], text["tokens"], text["nbytes"], text["formula"], text["equal"]], out)


def weights_table(name, n_params, n_tokens, weight_bytes, cache_bytes, fmt, *, lang=None):
    """Return a table of a model's weights beside its KV cache at n_tokens, and the batch where the cache wins."""
    text = labels("kv_memory_tables", lang)
    batch = weight_bytes // cache_bytes + 1  # the smallest batch whose caches weigh more than the weights
    rows = [
        [text["weights_row"].format(m=name, p=integer(n_params, lang)), fmt(weight_bytes)],
        [text["cache_row"].format(m=name, n=integer(n_tokens, lang)), fmt(cache_bytes)],
        [text["outweigh_row"].format(n=integer(n_tokens, lang)), f"{batch}"],
    ]
    return md_table([text["held"], text["size"]], rows)

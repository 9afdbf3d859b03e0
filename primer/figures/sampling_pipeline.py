"""Figures and tables of the chapter "Sampling and the seven-stage pipeline": temperature, draws, stages, mask swap."""

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from primer.figures.controls import add_control, finish
from primer.figures.look import ACCENT, CLOSED_COLOR, MUTED, heatmap_traces, styled
from primer.figures.tables import integer, md_table, minus, pct, ranges, visible_char
from primer.language import labels


def temperature(temperatures, probs, freqs, entropies, *, n_draws, active=0, lang=None):
    """Draw probabilities as bars and seeded-draw frequencies as dots, one slider step per temperature.

    temperatures may hold 0, drawn as the greedy step; probs, freqs and entropies are per step.
    """
    text, x, fig, steps = _word_figure(lang)
    for k, temp in enumerate(temperatures):
        fig.add_trace(
            go.Bar(
                x=x,
                y=list(probs[k]),
                marker_color=ACCENT,
                name=text["prob"],
                hovertemplate="%{x}: %{y:.4f}<extra></extra>",
            )
        )
        fig.add_trace(_frequency_dots(x, freqs[k], text["freq"].format(n=integer(n_draws, lang))))
        fig.add_trace(
            go.Scatter(
                x=x,
                y=[max(p, f) + 0.06 for p, f in zip(probs[k], freqs[k])],
                mode="text",
                text=[pct(p) for p in probs[k]],
                showlegend=False,
                hoverinfo="skip",
            )
        )
        label = text["greedy"] if temp == 0 else f"{temp:g}"
        # an entropy is >= 0: a one-hot row's -sum(p log p) is -0.0 or a hair below, which would print "-0.00"
        title = f"{text['temp']}{label} · {text['entropy'].format(h=max(float(entropies[k]), 0.0) + 0.0)}"
        steps.append((label, [3 * k, 3 * k + 1, 3 * k + 2], {"title.text": title}))
    fig.update_yaxes(range=[0, 1.12], title=text["y"], tickformat=".0%")
    fig.update_xaxes(color=MUTED)
    fig.update_layout(legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom"), bargap=0.35)
    styled(fig, height=460, title=" ")
    fig.update_layout(margin=dict(t=90))  # the legend sits on the plot, the title above it, below the toolbar
    add_control(fig, steps, kind="slider", prefix=text["temp"], active=active)
    return fig


def frequency_table(temperatures, probs, freqs, *, lang=None):
    """Return a Markdown table: one row per temperature, each cell 'probability / frequency' in percent."""
    text = labels("sampling", lang)
    head = [text["t"]] + list(text["words"])
    rows = []
    for k, temp in enumerate(temperatures):
        label = text["greedy"] if temp == 0 else f"{temp:g}"
        rows.append([label] + [f"{pct(p)} / {pct(f)}" for p, f in zip(probs[k], freqs[k])])
    return md_table(head, rows)


def _axis(axis, ticks, title, *, reverse=False, n=None):
    """Return the relayout of one axis for a step, key by key: a whole axis object would replace the axis, and drop
    what the figure set on it (its colour, the page theme's grid colours)."""
    n = len(ticks) if n is None else n
    return {
        f"{axis}.tickvals": list(range(len(ticks))),
        f"{axis}.ticktext": list(ticks),
        f"{axis}.title.text": title,
        f"{axis}.range": [n - 0.5, -0.5] if reverse else [-0.5, n - 0.5],
        f"{axis}.autorange": False,
    }


def pipeline_stages(stages, probs, vocab, *, temperature, lang=None):
    """Draw each stage's real array as a heatmap; a slider steps through the seven stages.

    stages: the seven (name, array) records of primer.sampling_pipeline.run; probs: stage 6's distribution.
    """
    text = labels("pipeline", lang)
    arr = {s.name: s.array for s in stages}
    ids = arr["tokenize"]
    chars = [visible_char(vocab[i]) for i in ids]
    pos = [f"{i} {c}" for i, c in enumerate(chars)]
    fig = go.Figure()
    steps = []

    def add(values, mask, layout, **kw):
        start = len(fig.data)
        for trace in heatmap_traces(values, mask, x=range(np.shape(values)[1]), y=range(np.shape(values)[0]), **kw):
            fig.add_trace(trace)
        steps.append((len(steps) + 1, [start, start + 1], layout))

    def title(k, shape, extra=""):
        return {"title.text": f"{text['stages'][k]} · {' × '.join(map(str, shape))}" + (f" · {extra}" if extra else "")}

    # 1 tokenize: one row of ids
    add(
        ids[None, :].astype(float),
        np.ones((1, ids.size), bool),
        {
            **title(0, ids.shape, text["ids"]),
            **_axis("xaxis", chars, text["pos"]),
            **_axis("yaxis", [""], "", reverse=True),
            "shapes": [],
        },
        fmt="{:.0f}",
        colorscale="Blues",
        zmin=-10,
        zmax=len(vocab),
    )
    # 2-4 arrays of width d
    for k, name in ((1, "embed"), (2, "blocks"), (3, "final_norm")):
        a = arr[name]
        lim = float(np.abs(a).max())
        add(
            a,
            np.ones(a.shape, bool),
            {
                **title(k, a.shape),
                **_axis("xaxis", [str(j) for j in range(a.shape[1])], text["dim"]),
                **_axis("yaxis", pos, text["pos"], reverse=True),
                "shapes": [],
            },
            fmt="{:.1f}",
            colorscale="RdBu",
            zmin=-lim,
            zmax=lim,
        )
    # 5 logits: one row per position, the last row is the one that is sampled
    a = arr["logits"]
    lim = float(np.abs(a).max())
    last = dict(
        type="rect",
        x0=-0.5,
        x1=a.shape[1] - 0.5,
        y0=a.shape[0] - 1.5,
        y1=a.shape[0] - 0.5,
        line=dict(color=ACCENT, width=3),
    )
    add(
        a,
        np.ones(a.shape, bool),
        {
            **title(4, a.shape),
            **_axis("xaxis", [visible_char(c) for c in vocab], text["vocab"]),
            **_axis("yaxis", pos, text["pos"], reverse=True),
            "shapes": [last],
        },
        fmt="",
        colorscale="RdBu",
        zmin=-lim,
        zmax=lim,
    )
    # 6 sample: the last row's distribution and the id drawn from it
    pick = int(arr["sample"][0])
    box = dict(type="rect", x0=pick - 0.5, x1=pick + 0.5, y0=-0.5, y1=0.5, line=dict(color=ACCENT, width=3))
    p = np.asarray(probs)[None, :]
    p_text = [[f"{v:.2f}"[1:] if v >= 0.005 else "" for v in p[0]]]  # '.40'; near-zero cells left blank
    add(
        p,
        np.ones(p.shape, bool),
        {
            **title(
                5, arr["sample"].shape, text["prob"].format(t=temperature, c=f"'{visible_char(vocab[pick])}' = {pick}")
            ),
            **_axis("xaxis", [visible_char(c) for c in vocab], text["vocab"]),
            **_axis("yaxis", [""], "", reverse=True),
            "shapes": [box],
        },
        fmt="{:.2f}",
        colorscale="Blues",
        zmin=0,
        zmax=1,
    )
    fig.data[-2].text = p_text
    # 7 loop: the sequence before each step; -1 is not written yet
    g = arr["loop"]
    n0 = ids.size
    kind = np.where(g < 0, 0.0, np.where(np.arange(g.shape[1]) < n0, 1.0, 2.0))
    for k in range(1, g.shape[0]):
        kind[k, n0 + k - 1] = 3.0
    cells = [[visible_char(vocab[v]) if v >= 0 else "" for v in row] for row in g]
    start = len(fig.data)
    fig.add_trace(
        go.Heatmap(
            z=np.where(g < 0, np.nan, kind).tolist(),
            text=cells,
            texttemplate="%{text}",
            x=list(range(g.shape[1])),
            y=list(range(g.shape[0])),
            xgap=2,
            ygap=2,
            showscale=False,
            zmin=1,
            zmax=3,
            colorscale=[[0, "#cfe2f3"], [0.5, "#9fc5e8"], [1, ACCENT]],
            hovertemplate="%{y}, %{x}: %{text}<extra></extra>",
        )
    )
    fig.add_trace(
        go.Heatmap(
            z=np.where(g < 0, 1.0, np.nan).tolist(),
            x=list(range(g.shape[1])),
            y=list(range(g.shape[0])),
            text=np.where(g < 0, "–", "").tolist(),
            texttemplate="%{text}",  # not written yet: a mark, not only grey
            xgap=2,
            ygap=2,
            showscale=False,
            colorscale=[[0, CLOSED_COLOR], [1, CLOSED_COLOR]],
            hoverinfo="skip",
        )
    )
    steps.append(
        (
            7,
            [start, start + 1],
            {
                **title(6, g.shape, text["loop"]),
                **_axis("xaxis", [str(j) for j in range(g.shape[1])], text["pos"]),
                **_axis("yaxis", [str(k) for k in range(g.shape[0])], text["step"], reverse=True),
                "shapes": [],
            },
        )
    )
    fig.update_xaxes(color=MUTED)
    styled(fig, height=480, title=" ")
    fig.update_layout(margin=dict(l=70, r=20, t=60, b=60))
    add_control(fig, steps, kind="slider", prefix=text["stage"])
    return fig


def pipeline_stages_table(stages, vocab, *, lang=None):
    """Return a Markdown table of the seven stages: name, shape and the first values of the first row."""
    text = labels("pipeline", lang)
    rows = []
    for k, s in enumerate(stages):
        a = np.asarray(s.array)
        first = a.ravel()[:4] if a.ndim == 1 else a[0].ravel()[:4]
        if np.issubdtype(a.dtype, np.integer):
            glimpse = ", ".join(str(int(v)) for v in first)
            if s.name in ("tokenize", "sample"):
                glimpse += " = '" + "".join(visible_char(vocab[int(v)]) for v in first) + "'"
        else:
            glimpse = ", ".join(minus(f"{v:.2f}") for v in first)
        rows.append([text["stages"][k], f"`{s.name}`", " × ".join(map(str, a.shape)), glimpse + " …" * (a.size > 4)])
    return md_table([text["col_stage"], text["col_name"], text["col_shape"], text["col_glimpse"]], rows)


def mask_swap(masks, deps, prompt, source, *, lang=None):
    """Draw stage 3's masks and the measured dependence side by side; buttons switch the machine.

    masks[machine] and deps[machine] are [n, n + m] bool: text columns, then source columns.
    """
    text = labels("pipeline", lang)
    n, m = len(prompt), len(source)
    x = [visible_char(c) for c in prompt] + [visible_char(c) for c in source]
    y = [f"{i} {visible_char(c)}" for i, c in enumerate(prompt)]
    fig = make_subplots(rows=1, cols=2, subplot_titles=(text["mask"], text["dep"]), horizontal_spacing=0.08)
    steps = []
    for name in masks:
        start = len(fig.data)
        for col, grid in ((1, masks[name]), (2, deps[name])):
            for trace in heatmap_traces(
                np.ones((n, n + m)),
                grid,
                x=range(n + m),
                y=range(n),
                fmt="●",
                colorscale=[[0, "#1f77b4"], [1, "#1f77b4"]],
            ):
                trace.update(hovertemplate=None, hoverinfo="skip")
                fig.add_trace(trace, row=1, col=col)
        steps.append((text["machines"][name], list(range(start, start + 4)), None))
    for col in (1, 2):
        fig.update_xaxes(
            tickvals=list(range(n + m)),
            ticktext=x,
            row=1,
            col=col,
            title=text["xtitle"].format(p=f"'{prompt}'", s=f"'{source}'"),
        )
        fig.update_yaxes(tickvals=list(range(n)), ticktext=y, autorange="reversed", row=1, col=col)
        fig.add_vline(x=n - 0.5, line=dict(color=ACCENT, width=2, dash="dot"), row=1, col=col)
    fig.update_yaxes(showticklabels=False, row=1, col=2)
    styled(fig, height=380)
    add_control(fig, steps, kind="buttons", active=1)
    return fig


def reads(dep_row, n, *, lang=None):
    """Describe one dependence row: text positions it reads, then source positions, e.g. '0–3 + source 0–6'."""
    text = labels("pipeline", lang)
    row = np.asarray(dep_row, bool)
    in_text = ranges([j for j in range(n) if row[j]])
    src = ranges([j - n for j in range(n, row.size) if row[j]])
    parts = [in_text or text["none"]] + ([text["source"] + src] if src else [])
    return " + ".join(parts)


def dependence_table(deps, prompt, *, lang=None):
    """Return a Markdown table: for each output position, the inputs it depends on under each machine."""
    text = labels("pipeline", lang)
    n = len(prompt)
    head = [text["out"]] + [text["machines"][name] for name in deps]
    rows = [
        [text["row_out"].format(i=i, c=visible_char(c))] + [reads(deps[name][i], n, lang=lang) for name in deps]
        for i, c in enumerate(prompt)
    ]
    return md_table(head, rows)


def top_k_top_p(settings, before, after, masses, freqs, *, n_draws, active=0, lang=None):
    """Draw one distribution before and after a top-k / top-p filter, with seeded-draw frequencies; a menu picks one.

    settings: one menu label per filter, e.g. "top-k = 2" (None: no filter); after, masses (the kept
    candidates' probability before the filter) and freqs are per setting.
    """
    text, x, fig, steps = _word_figure(lang)
    for k, name in enumerate(settings):
        start = len(fig.data)
        kept = [q > 0 for q in after[k]]
        fig.add_trace(
            go.Bar(
                x=x,
                y=list(before),
                name=text["before"],
                marker_color="rgba(0,0,0,0)",
                marker_line=dict(color=MUTED, width=2),
                hovertemplate="%{x}: %{y:.4f}<extra></extra>",
            )
        )
        fig.add_trace(
            go.Bar(
                x=x,
                y=list(after[k]),
                name=text["after"],
                marker_color=[ACCENT if c else CLOSED_COLOR for c in kept],
                text=[pct(q) if c else "" for q, c in zip(after[k], kept)],
                textposition="outside",
                hovertemplate="%{x}: %{y:.4f}<extra></extra>",
            )
        )
        fig.add_trace(_frequency_dots(x, freqs[k], text["freq"].format(n=integer(n_draws, lang))))
        label = text["none"] if name is None else name
        title = f"{label} · {text['kept'].format(n=sum(kept), m=pct(masses[k]))}"
        steps.append((label, [start, start + 1, start + 2], {"title.text": title}))
    fig.update_yaxes(range=[0, 1.15], title=text["y"], tickformat=".0%")
    fig.update_xaxes(color=MUTED)
    fig.update_layout(barmode="overlay", legend=dict(orientation="h", x=0, y=-0.18, yanchor="top"), bargap=0.35)
    return finish(
        fig, steps, kind="dropdown", active=active, height=500, margin=dict(t=150), title_step=active
    )  # eight settings: a row of buttons would not fit a phone


def filter_table(settings, after, masses, *, lang=None):
    """Return a Markdown table: per filter setting, the candidates kept, their mass before, each new probability."""
    text = labels("sampling", lang)
    rows = []
    for name, probs, mass in zip(settings, after, masses):
        kept = [w for w, q in zip(text["words"], probs) if q > 0]
        rows.append(
            [text["none"] if name is None else name, text["sep"].join(kept), pct(mass)] + [pct(q) for q in probs]
        )
    return md_table([text["setting"], text["kept_col"], text["mass"]] + list(text["words"]), rows)


def _word_figure(lang):
    # the five candidate words' labels, an empty figure and its control steps
    text = labels("sampling", lang)
    return text, list(text["words"]), go.Figure(), []


def _frequency_dots(x, freqs, name):
    return go.Scatter(
        x=x,
        y=list(freqs),
        mode="markers",
        name=name,
        marker=dict(symbol="diamond", size=12, color="#1f77b4", line=dict(width=1, color="white")),
        hovertemplate="%{x}: %{y:.4f}<extra></extra>",
    )


def setting_name(temperature, top_k=None, top_p=None):
    """Name a sampling setting: 'T = 2.0, top-p = 0.9'."""
    return f"T = {temperature}" + (f", top-k = {top_k}" if top_k else "") + (f", top-p = {top_p}" if top_p else "")


def trained_sampling_table(vocab, next_settings, probs, sample_settings, samples, n_samples, *, lang=None):
    """Return two Markdown tables: the trained model's next-word probabilities per setting, and its scored samples.

    probs: [next_settings, vocab]; rows are the words that reach 1% under some setting, most likely first at the
    first setting, then the other words together. A word a filter removed prints as 0. samples: per sample setting,
    (the first sample's words, (found, total) n-grams of all n_samples samples in the corpus).
    """
    text = labels("sampling", lang)
    probs = np.asarray(probs)
    order = [i for i in np.argsort(-probs[0], kind="stable") if probs[:, i].max() >= 0.01]
    rest = np.ones(len(vocab), bool)
    rest[order] = False

    def cell(p):
        return pct(p) if p > 0 else "0"  # "0": cut by the filter; 0.0%: too small to show

    rows = [[f"`{vocab[i]}`"] + [cell(q[i]) for q in probs] for i in order]
    rows.append([text["others"].format(n=int(rest.sum()))] + [cell(q[rest].sum()) for q in probs])
    first = md_table([text["word"]] + [setting_name(*s) for s in next_settings], rows)
    cols = text["cols_samples"][:2] + [text["cols_samples"][2].format(n=n_samples)]
    second = md_table(
        cols,
        [
            [setting_name(*s), " ".join(words), f"{f} / {n} = {pct(f / n, 0)}"]
            for s, (words, (f, n)) in zip(sample_settings, samples)
        ],
    )
    return first + "\n" + second


def same_draws_table(low, high, prompt, p_same, n_same, n_seeds, n_new, *, lang=None):
    """Return a Markdown table: how often two temperatures, drawing with the same seeds, pick the same words.

    p_same: the chance that one uniform draw picks the same next word after the prompt at both temperatures;
    n_same: the seeds (of n_seeds) whose whole samples of n_new words are the same at both.
    """
    text = labels("sampling", lang)
    rows = [
        [text["same_next"].format(prompt=prompt), pct(p_same, 0)],
        [text["same_samples"].format(n=n_new), f"{n_same} / {n_seeds}"],
    ]
    return md_table([text["same_cols"][0].format(low=low, high=high), text["same_cols"][1]], rows)

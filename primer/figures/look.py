"""The site's look of every figure: colours, font, the lean plotly template, the layout defaults, heatmap cells."""

import numpy as np
import plotly.graph_objects as go

from primer.figures.tables import minus

FONT = "system-ui, -apple-system, 'Segoe UI', 'Noto Sans CJK SC', 'PingFang SC', 'Microsoft YaHei', sans-serif"
OPEN_SCALE = "Blues"
CLOSED_COLOR = "#9e9e9e"  # cells a mask closes: drawn, never left as a gap
ACCENT = "#e8710a"  # the one thing a figure wants you to look at
MUTED = "#90a4ae"
LEFT_COLOR = "#1f77b4"  # what a token reads on its left (and the encoder)
RIGHT_COLOR = (
    "#009e73"  # what it reads on its right (and the decoder); Okabe-Ito green: apart from ACCENT for protanopes
)
NEG_INF = "−∞"
# What the figures take from plotly's default template, and nothing else: its 3-D, map, polar and
# table defaults cost about 7 KB in every figure. Each heatmap names its own colorscale.
_INK = "#2a3f5f"
_AXIS = dict(
    gridcolor="white",
    linecolor="white",
    ticks="",
    title=dict(standoff=15),
    zerolinecolor="white",
    automargin=True,
    zerolinewidth=2,
)
TEMPLATE = go.layout.Template(
    layout=dict(
        autotypenumbers="strict",
        font=dict(color=_INK),
        hovermode="closest",
        hoverlabel=dict(align="left"),
        colorway=[
            "#636efa",
            "#EF553B",
            "#00cc96",
            "#ab63fa",
            "#FFA15A",
            "#19d3f3",
            "#FF6692",
            "#B6E880",
            "#FF97FF",
            "#FECB52",
        ],
        xaxis=_AXIS,
        yaxis=_AXIS,
        coloraxis=dict(colorbar=dict(outlinewidth=0, ticks="")),
        shapedefaults=dict(line=dict(color=_INK)),
        title=dict(x=0.05),
        annotationdefaults=dict(arrowcolor=_INK, arrowhead=0, arrowwidth=1),
    ),
    data=dict(
        heatmap=[go.Heatmap(colorbar=dict(outlinewidth=0, ticks=""))],
        bar=[
            go.Bar(
                error_x=dict(color=_INK), error_y=dict(color=_INK), marker=dict(line=dict(color="#E5ECF6", width=0.5))
            )
        ],
    ),
)


def tick_labels(words):
    """Return unique axis labels 'i word' (a repeated word such as 'the' would merge on a category axis)."""
    return [f"{i} {w}" for i, w in enumerate(words)]


def note(text, x, y, *, on="paper", **style):  # -> a plotly annotation dict
    """Return a text at (x, y) without an arrow, placed on the paper (0..1) or on="data" (the first axes' values)."""
    if on not in ("paper", "data"):
        raise ValueError(f"on must be 'paper' or 'data', got {on!r}")
    xref, yref = ("paper", "paper") if on == "paper" else ("x", "y")
    return dict(text=text, x=x, y=y, xref=xref, yref=yref, showarrow=False, **style)


def row_box(row, width):  # -> a plotly shape dict
    """Return the accent rectangle around one row of a heatmap `width` cells wide: the row the figure is about."""
    return dict(type="rect", x0=-0.5, x1=width - 0.5, y0=row - 0.5, y1=row + 0.5, line=dict(color=ACCENT, width=3))


TITLE_MIDDLE = 44  # px from the top: the toolbar plotly shows on hover covers the top 29 px, and a title its height
TITLE_ROOM = 58  # px of top margin a title needs below the toolbar


def title_layout(text, *, height, top):
    """Return a title at the left of the figure; below the toolbar when the top margin (top px) has room for it."""
    out = dict(text=text, x=0.01, xanchor="left")
    if top >= TITLE_ROOM:
        out.update(y=1 - TITLE_MIDDLE / height, yanchor="middle")
    return out


def styled(fig, *, height=420, title=None):
    """Apply the site look: transparent background (the page's light/dark scheme shows through)."""
    fig.update_layout(
        template=TEMPLATE,
        height=height,
        title=title_layout(title, height=height, top=60) if title else None,
        font=dict(family=FONT, size=13),
        paper_bgcolor="rgba(0,0,0,0)",
        plot_bgcolor="rgba(0,0,0,0)",
        margin=dict(l=50, r=20, t=60 if title else 30, b=50),
        hoverlabel=dict(font_family=FONT),
    )
    return fig


def heatmap_traces(
    values,
    mask,
    *,
    x,
    y,
    fmt="{:.2f}",
    closed_text=NEG_INF,
    zmin=None,
    zmax=None,
    colorscale=OPEN_SCALE,
    showscale=False,
    visible=True,
    xaxis="x",
    yaxis="y",
):
    """Return two heatmap traces: open cells coloured by value, closed cells grey with a label.

    plotly writes -inf as null and leaves a gap, so closed cells are drawn by a second trace.
    """
    values = np.asarray(values, dtype=float)
    mask = np.broadcast_to(np.asarray(mask, dtype=bool), values.shape)
    open_z = np.where(mask, values, np.nan)
    open_text = [[minus(fmt.format(v)) if m else "" for v, m in zip(rv, rm)] for rv, rm in zip(values, mask)]
    closed_z = np.where(mask, np.nan, 1.0)
    closed_txt = [["" if m else closed_text for m in rm] for rm in mask]
    common = dict(x=list(x), y=list(y), xgap=2, ygap=2, visible=visible, xaxis=xaxis, yaxis=yaxis)
    return [
        go.Heatmap(
            z=open_z.tolist(),
            text=open_text,
            texttemplate="%{text}",
            colorscale=colorscale,
            zmin=zmin,
            zmax=zmax,
            showscale=showscale,
            hovertemplate="%{y} → %{x}: %{text}<extra></extra>",
            **common,
        ),
        go.Heatmap(
            z=closed_z.tolist(),
            text=closed_txt,
            texttemplate="%{text}",
            colorscale=[[0, CLOSED_COLOR], [1, CLOSED_COLOR]],
            showscale=False,
            hovertemplate="%{y} → %{x}: " + closed_text + "<extra></extra>",
            **common,
        ),
    ]


PHONE_GAP = 70  # px between two panels stacked on a phone: room for the lower one's title and the upper one's ticks


def on_subplot(annotation, xaxis, yaxis, x=0.5, y=1.0):  # -> the annotation, placed on one subplot
    """Place an annotation at (x, y) of one subplot's area (0..1 each way; axes named "xaxis2"), moving with it."""
    annotation.update(xref=f"{xaxis.replace('axis', '')} domain", yref=f"{yaxis.replace('axis', '')} domain", x=x, y=y)
    return annotation


def pin_titles(fig, cells):  # -> make_subplots' panel titles (those with a text), each on its own panel
    """Place make_subplots' panel titles on their panels (cells: (row, col) per title, in order) to follow them."""
    titles = [a for a in fig.layout.annotations if a.text]
    if len(titles) != len(cells):
        raise ValueError(f"cells must give one (row, col) per panel title: {len(titles)} titles, {len(cells)} cells")
    for a, (row, col) in zip(titles, cells):
        ref = fig.get_subplot(row, col)
        on_subplot(a, ref.xaxis.plotly_name, ref.yaxis.plotly_name)
    return titles


def phone_layout(fig, panels, *, below=0, **more):
    """Set layout.meta["narrow"]: the layout plotly-fit.js draws below 640 px wide, the panels stacked full width.

    panels: [(xaxis name as "xaxis2", yaxis name, height px, px above it)] top to bottom; below: px of plot area
    left under the last panel (a note); more: other layout paths to set there ("margin.b", "legend.y"). Place the
    panels' titles and notes with on_subplot, so they move with them; the desktop layout is left as it is.
    """
    if not panels or any(h <= 0 or gap < 0 for *_, h, gap in panels) or below < 0:
        raise ValueError("panels must list (xaxis, yaxis, height > 0, gap >= 0) and below must be >= 0")
    margin_t, margin_b = more.get("margin.t", fig.layout.margin.t), more.get("margin.b", fig.layout.margin.b)
    plot = sum(h + gap for *_, h, gap in panels) + below
    narrow, top = {"height": int(plot + margin_t + margin_b)}, 0
    for xaxis, yaxis, h, gap in panels:
        top += gap
        narrow[f"{xaxis}.domain"] = [0, 1]
        narrow[f"{yaxis}.domain"] = [round(1 - (top + h) / plot, 4), round(1 - top / plot, 4)]
        top += h
    # a slider or a menu placed beyond the plot keeps its distance from it in px, not in fractions of the plot
    wide = (fig.layout.height or 450) - fig.layout.margin.t - fig.layout.margin.b
    for kind in ("sliders", "updatemenus"):
        for i, control in enumerate(getattr(fig.layout, kind)):
            if control.y is not None and not 0 <= control.y <= 1:
                edge = 1 if control.y > 1 else 0
                narrow[f"{kind}[{i}].y"] = round(edge + (control.y - edge) * wide / plot, 4)
    narrow.update(more)
    return on_phone(fig, layout=narrow)


def panel_title(text, xaxis, yaxis):  # -> a plotly annotation dict
    """Return a title standing on one subplot (axes named "xaxis2"), centred, that moves with it."""
    return on_subplot(note(text, 0.5, 1, yanchor="bottom", yshift=6), xaxis, yaxis)


def on_phone(fig, *, layout=None, style=None):
    """Add to what plotly-fit.js applies below 640 px wide: layout paths to relayout, paths to set on every trace."""
    meta = dict(fig.layout.meta or {})
    if layout:
        meta["narrow"] = {**meta.get("narrow", {}), **layout}
    if style:
        meta["narrow_style"] = {**meta.get("narrow_style", {}), **style}
    fig.update_layout(meta=meta)
    return fig

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

"""The controls of a figure: a slider or buttons that switch which traces show, and the walk over their steps."""

from primer.figures.look import styled, title_layout


def annotated_step(label, traces, *notes):  # -> (label, [trace indices], {"annotations": [...]})
    """Return a control step that shows traces and replaces the figure's annotations with notes."""
    return (label, list(traces), {"annotations": list(notes)})


def add_control(fig, steps, *, kind="slider", prefix="", active=0, y=None):
    """Add a slider or a row of buttons; each step is (label, visible trace indices, layout changes)."""
    if len(steps) < 2:
        raise ValueError(f"steps must hold at least 2 states for a control to switch between, got {len(steps)}")
    if not 0 <= active < len(steps):
        raise ValueError(f"active must index steps (0 .. {len(steps) - 1}), got {active}")
    n = len(fig.data)
    entries = []
    for label, shown, layout in steps:
        visible = [i in set(shown) for i in range(n)]
        entries.append(dict(label=str(label), method="update", args=[{"visible": visible}, layout or {}]))
    for i, trace in enumerate(fig.data):
        trace.visible = i in set(steps[active][1])
    if steps[active][2]:
        fig.update_layout(steps[active][2])
    if kind == "slider":
        fig.update_layout(
            sliders=[
                dict(
                    active=active,
                    steps=entries,
                    currentvalue=dict(prefix=prefix),
                    pad=dict(t=40),
                    y=0 if y is None else y,
                )
            ]
        )
    elif kind == "buttons":
        fig.update_layout(
            updatemenus=[
                dict(
                    type="buttons",
                    direction="right",
                    active=active,
                    buttons=entries,
                    x=0,
                    xanchor="left",
                    y=1.12 if y is None else y,
                    yanchor="bottom",
                    showactive=True,
                )
            ]
        )
    elif kind == "dropdown":
        fig.update_layout(
            updatemenus=[
                dict(
                    type="dropdown",
                    active=active,
                    buttons=entries,
                    x=0,
                    xanchor="left",
                    y=1.12 if y is None else y,
                    yanchor="bottom",
                )
            ]
        )
    else:
        raise ValueError(f"kind must be 'slider', 'buttons' or 'dropdown', got {kind!r}")
    return fig


def finish(fig, steps, *, height, margin=None, title_step=None, **control):
    """Add the control, apply the site look, then widen the margins it needs; title_step: show that step's title."""
    add_control(fig, steps, **control)
    styled(fig, height=height)
    if margin:
        fig.update_layout(margin=margin)
    if title_step is not None:
        text = steps[title_step][2]["title.text"]
        fig.update_layout(title=title_layout(text, height=height, top=fig.layout.margin.t))
    return fig


def control_steps(layout):
    """Yield every control step dict (slider step or button) in layout, including those a step's args install."""
    stack = [layout]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if "method" in node and "args" in node:
                yield node
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)

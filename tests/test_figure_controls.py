"""Every step of every slider, button row and dropdown on the built site, read from the page's JSON and applied by
plotly.py itself: the figure and each step's result pass plotly.py's validators, no two steps of a control show the
same thing, and the figure as first drawn is what its control's active step shows.

Each step is applied to the figure as first drawn with plotly.py's Figure.plotly_update (restyle and relayout steps
are updates with one part empty), which follows plotly.js's argument rules. tests/test_browser.py
operates one control of each kind in a real browser, as a reader does.
"""

import json
import re

import plotly.graph_objects as go
import pytest
from site_reader import LANGS, figure_controls, page_figures, page_names


def step_args(step):
    """Return (restyle, relayout, trace indices) of a restyle, relayout or update step; ValueError for another one."""
    method, args = step.get("method"), list(step.get("args") or [{}])
    if method == "restyle":
        return args[0], {}, args[1] if len(args) > 1 else None
    if method == "relayout":
        return {}, args[0], None
    if method == "update":
        return args[0], args[1] if len(args) > 1 else {}, args[2] if len(args) > 2 else None
    raise ValueError(f"method {method!r}: a control here restyles, relayouts or updates")


def apply_step(fig, skeleton, step):
    """Apply the step to fig as plotly.py's Figure.plotly_update does. The step is first applied to the figure's
    skeleton (its traces' types, its layout's axes), which then goes through plotly.py's validators: a wrong path or
    value raises ValueError (without validating the figure's arrays again at each step)."""
    restyle, relayout, indices = step_args(step)
    traces = len(fig.data) if indices is None else 1 if isinstance(indices, int) else len(indices)
    for key, value in restyle.items():  # plotly cycles a short list over the traces: never what a step means
        if isinstance(value, list) and len(value) != traces:
            raise ValueError(f"{key!r} gives {len(value)} values to {traces} traces")
    bare = go.Figure(skeleton)
    bare.plotly_update(restyle_data=restyle, relayout_data=relayout, trace_indexes=indices)
    go.Figure(bare.to_dict())  # plotly_update checks paths only; constructing checks the values
    fig.plotly_update(restyle_data=restyle, relayout_data=relayout, trace_indexes=indices)


def rounded(value):
    """The value as the site writes it: floats to 6 significant digits, an empty annotation or shape list as none."""
    if isinstance(value, float):
        return float(f"{value:.6g}")
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items() if not (k in ("annotations", "shapes") and v == [])}
    if isinstance(value, (list, tuple)):
        return [rounded(v) for v in value]
    return value.tolist() if hasattr(value, "tolist") else value


def shown(fig):
    """What a figure draws, as text: the controls' own positions aside, an unset `visible` as true."""
    state = fig.to_plotly_json()
    traces = [dict(t, visible=t.get("visible", True)) for t in state["data"]]
    layout = dict(state["layout"])
    for kind in ("sliders", "updatemenus"):
        layout[kind] = [{k: v for k, v in c.items() if k != "active"} for c in layout.get(kind, [])]
    return json.dumps(rounded([traces, layout]), sort_keys=True)


def control_problems(div, data, layout):
    """List what is wrong with a figure's controls: an invalid figure or step, two steps that show the same, or a
    first draw that is not what the control's active step shows. A reader's clicks: each control's steps are taken in
    turn from the first draw, then its active step again."""
    try:
        fig = go.Figure(data=data, layout=layout)
    except ValueError as err:
        return [f"{div}: plotly.py refuses the figure: {str(err).strip().splitlines()[0]}"]
    problems, drawn = [], shown(fig)
    skeleton = go.Figure(
        data=[{"type": t.type} for t in fig.data],
        layout={k: v for k, v in layout.items() if re.fullmatch(r"[xy]axis\d*", k)} | {"template": "none"},
    )
    for kind, index, control, steps in figure_controls(layout):
        states, clicked, active = [], go.Figure(fig), control.get("active", 0)
        for j, step in enumerate(steps + steps[active : active + 1]):
            try:
                apply_step(clicked, skeleton, step)
                states.append(shown(clicked))
            except ValueError as err:
                problems.append(f"{div} {kind} #{index} step {j}: {' '.join(str(err).split())[:200]}")
                states.append(f"invalid {j}")
        *states, again = states
        problems += [
            f"{div} {kind} #{index}: steps {k} and {j} show the same"
            for j in range(len(states))
            for k in range(j)
            if states[j] == states[k]
        ]
        if len(steps) < 2:
            problems.append(f"{div} {kind} #{index}: {len(steps)} step(s), nothing to switch between")
        elif again != drawn:
            problems.append(
                f"{div} {kind} #{index}: the figure as first drawn is not what its active step {active} shows"
            )
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_every_step_of_every_control_is_valid_distinct_and_agrees_with_the_first_draw(read_page, lang):
    problems, steps = [], 0
    for name in page_names():
        for div, (data, layout, _config) in page_figures(read_page(lang, name)).items():
            problems += [f"{name} {p}" for p in control_problems(div, data, layout)]
            steps += sum(len(s) for *_, s in figure_controls(layout))
    assert not problems, "\n".join(problems)
    assert steps > 150  # every control of the site was read, not an empty page


def two_buttons(*steps, active=0, layout=None):
    data = [{"type": "heatmap", "z": [[1.0]], "visible": True}, {"type": "bar", "y": [1.0], "visible": False}]
    return data, dict(layout or {}, updatemenus=[{"type": "buttons", "active": active, "buttons": list(steps)}])


def step(visible, relayout=None, method="update", indices=None):
    args = [{"visible": visible}, relayout or {}] + ([indices] if indices is not None else [])
    return {"label": "x", "method": method, "args": args}


def test_the_control_check_catches_each_kind_of_broken_step():
    """The check is plotly.py's: what it must refuse or tell apart, planted one at a time."""
    assert control_problems("fig", *two_buttons(step([True, False]), step([False, True]))) == []
    broken = {
        "show the same": two_buttons(step([True, False]), step([True, False])),
        "out of range": two_buttons(step([True, False]), step([True], indices=[5])),
        "gives 3 values": two_buttons(step([True, False]), step([False, True, True])),
        "xaxis.rnage": two_buttons(step([True, False]), step([False, True], {"xaxis.rnage": [0, 1]})),
        "'range'": two_buttons(step([True, False]), step([False, True], {"xaxis.range": "wide"})),
        "'visible'": two_buttons(step([True, False]), step(["maybe", True])),
        "first drawn": two_buttons(step([True, False]), step([False, True]), active=1),
        "method 'animate'": two_buttons(step([True, False]), step([False, True], method="animate")),
    }
    for expected, figure in broken.items():
        problems = control_problems("fig", *figure)
        assert any(expected in p for p in problems), (expected, problems)

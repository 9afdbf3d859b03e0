"""Every step of every slider, button row and dropdown on the built site, read from the page's JSON: plotly.py's
validators accept each change it makes, and each step shows something the others do not.

The browser test (tests/test_browser.py) operates one control of each kind, as a reader does; this checks every step
of every control, each applied to the figure as plotly.js applies it (a method's arguments, per trace in order).
"""

import functools
import hashlib
import json
import re

import plotly.graph_objects as go
import pytest

from conftest import LANGS, figure_controls, page_figures, page_names

METHODS = ("restyle", "relayout", "update")
PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
AXIS = re.compile(r"[xy]axis\d*")


def set_path(obj, key, value):
    """Set 'a.b[2].c' in nested dicts and lists, as plotly.js's nestedProperty does (a whole value replaces); return
    obj's copy with the change. What the path passes through is copied, the rest is shared, never changed."""
    parts = [int(i) if i else name for name, i in PATH_PART.findall(key)]

    def into(node, at):
        part, rest = parts[at], parts[at + 1:]
        node = list(node) if isinstance(node, list) else dict(node)
        if isinstance(part, int):
            node.extend({} for _ in range(part + 1 - len(node)))
        if not rest:
            node[part] = value
            return node
        child = node.get(part) if isinstance(node, dict) else node[part]
        if not isinstance(child, (dict, list)):
            child = [] if isinstance(rest[0], int) else {}
        node[part] = into(child, at + 1)
        return node
    return into(obj, 0)


def step_parts(step):
    """Return (restyle changes, relayout changes, trace indices or None) of a restyle, relayout or update step."""
    method, args = step.get("method"), step.get("args") or [{}]
    if method == "relayout":
        return {}, args[0], None
    at = 2 if method == "update" else 1   # where the trace indices are
    return args[0], (args[1] if method == "update" and len(args) > 1 else {}), (args[at] if len(args) > at else None)


def addressed(data, indices):
    """Return the trace indices a restyle addresses (all traces when None)."""
    return list(range(len(data))) if indices is None else [indices] if isinstance(indices, int) else list(indices)


def restyle(data, changes, indices, where):
    """Apply a restyle to the list data (changed traces are replaced by copies); a list value gives one item to each
    trace addressed. Return problems."""
    traces = addressed(data, indices)
    bad = [i for i in traces if not isinstance(i, int) or not 0 <= i < len(data)]
    if bad:
        return [f"{where}: trace indices {bad} outside 0..{len(data) - 1}"]
    problems = []
    for key, value in changes.items():
        if isinstance(value, list) and len(value) != len(traces):   # plotly.js would cycle it: never what we meant
            problems.append(f"{where}: {key!r} gives {len(value)} values to {len(traces)} traces")
            continue
        for n, i in enumerate(traces):
            data[i] = set_path(data[i], key, value[n] if isinstance(value, list) else value)
    return problems


def apply_step(data, layout, step, where):
    """Return (data, layout, problems): the figure after the step, as plotly.js applies its method (new containers
    where it changed, the figure's own elsewhere)."""
    data = list(data)
    if step.get("method") not in METHODS:
        return data, layout, [f"{where}: method {step.get('method')!r} (expected one of {METHODS})"]
    restyles, relayouts, indices = step_parts(step)
    problems = restyle(data, restyles, indices, where)
    for key, value in relayouts.items():
        layout = set_path(layout, key, value)
    return data, layout, problems


def digest(value, memo):
    """Return a digest of what a value draws: floats to the 6 digits the site writes, an empty annotation or shape
    list as none. Containers are remembered by identity (shared ones are never changed), so each is read once."""
    if isinstance(value, float):
        return repr(float(f"{value:.6g}"))
    if not isinstance(value, (dict, list)):
        return json.dumps(value)
    hit = memo.get(id(value))
    if hit is not None and hit[0] is value:
        return hit[1]
    if isinstance(value, dict):
        text = "{" + ",".join(f"{k!r}:{digest(v, memo)}" for k, v in sorted(value.items())
                              if not (k in ("annotations", "shapes") and v == [])) + "}"
    else:
        text = "[" + ",".join(digest(v, memo) for v in value) + "]"
    out = hashlib.sha1(text.encode()).hexdigest()
    memo[id(value)] = (value, out)
    return out


def shown(data, layout, memo):
    """What a state draws, as one digest: the controls' own positions aside, an unset `visible` as true."""
    traces = [digest({k: v for k, v in t.items() if k != "visible"}, memo) + digest(t.get("visible", True), memo)
              for t in data]
    rest = {k: v for k, v in layout.items() if k not in ("sliders", "updatemenus")}
    controls_ = [[{k: v for k, v in c.items() if k != "active"} for c in layout.get(kind, [])]
                 for kind in ("sliders", "updatemenus")]
    return digest([traces, rest, controls_], memo)


@functools.lru_cache(maxsize=None)
def blank_trace(trace_type):
    """One plotly.py trace object per type, to validate values on (each assignment only replaces the last)."""
    return go.Figure(data=[{"type": trace_type}]).data[0]


def invalid(step, data, layout, where):
    """Ask plotly.py's validators about each property a step sets, on each trace it addresses and on a layout with
    the figure's axes: a misspelt path or a wrong value is a problem."""
    restyles, relayouts, indices = step_parts(step)
    traces = [i for i in addressed(data, indices) if isinstance(i, int) and 0 <= i < len(data)]   # others: restyle()'s
    problems = []
    for key, value in restyles.items():
        values = value if isinstance(value, list) else [value] * len(traces)
        for i, v in zip(traces, values):
            trace_type = data[i].get("type", "scatter")
            try:
                blank_trace(trace_type)[key] = v
            except (ValueError, KeyError) as err:
                problems.append(f"{where}: {trace_type}.{key} = {str(v)[:40]}: {str(err).strip().splitlines()[0]}")
                break
    blank_layout = go.Layout({k: {} for k in layout if AXIS.fullmatch(k)})   # xaxis2 exists once the figure has it
    for key, value in relayouts.items():
        try:
            blank_layout[key] = value
        except (ValueError, KeyError) as err:
            problems.append(f"{where}: layout.{key} = {str(value)[:40]}: {str(err).strip().splitlines()[0]}")
    return problems


def control_problems(div, data, layout):
    """List what is wrong with a figure's controls: an invalid step, two steps that show the same, or a first draw
    that is not what the control's active step shows."""
    problems, memo = [], {}
    drawn = shown(data, layout, memo)
    for kind, index, control, steps in figure_controls(layout):
        states = []
        for j, step in enumerate(steps):
            where = f"{div} {kind} #{index} step {j}"
            after, after_layout, wrong = apply_step(data, layout, step, where)
            problems += wrong + invalid(step, data, layout, where)
            states.append(shown(after, after_layout, memo))
        for j in range(len(states)):
            for k in range(j):
                if states[j] == states[k]:
                    problems.append(f"{div} {kind} #{index}: steps {k} and {j} show the same")
        active = control.get("active", 0)
        if len(steps) < 2:
            problems.append(f"{div} {kind} #{index}: {len(steps)} step(s), nothing to switch between")
        elif states[active] != drawn:
            problems.append(f"{div} {kind} #{index}: the figure as first drawn is not what its active step {active} shows")
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_every_step_of_every_control_is_valid_distinct_and_agrees_with_the_first_draw(read_page, lang):
    problems, steps = [], 0
    for name in page_names():
        for div, (data, layout, _config) in page_figures(read_page(lang, name)).items():
            problems += [f"{name} {p}" for p in control_problems(div, data, layout)]
            steps += sum(len(s) for *_, s in figure_controls(layout))
    assert not problems, "\n".join(problems)
    assert steps > 150   # every control of the site was read, not an empty page


def two_buttons(*steps, active=0, layout=None):
    data = [{"type": "heatmap", "z": [[1.0]], "visible": True}, {"type": "bar", "y": [1.0], "visible": False}]
    menu = {"type": "buttons", "active": active, "buttons": list(steps)}
    return data, dict(layout or {}, updatemenus=[menu])


def step(visible, relayout=None, method="update", indices=None):
    args = [{"visible": visible}, relayout or {}] + ([indices] if indices is not None else [])
    return {"label": "x", "method": method, "args": args}


def test_the_control_check_catches_each_kind_of_broken_step():
    good = two_buttons(step([True, False]), step([False, True]))
    assert control_problems("fig", *good) == []
    broken = {
        "the same": two_buttons(step([True, False]), step([True, False])),
        "outside": two_buttons(step([True, False]), step([True], indices=[5])),
        "gives 3 values": two_buttons(step([True, False]), step([False, True, True])),
        "layout.xaxis.rnage": two_buttons(step([True, False]), step([False, True], {"xaxis.rnage": [0, 1]})),
        "layout.xaxis.range": two_buttons(step([True, False]), step([False, True], {"xaxis.range": "wide"})),
        "heatmap.visible": two_buttons(step([True, False]), step(["maybe", True])),
        "first drawn": two_buttons(step([True, False]), step([False, True]), active=1),
        "method 'animate'": two_buttons(step([True, False]), step([False, True], method="animate")),
    }
    for expected, figure in broken.items():
        problems = control_problems("fig", *figure)
        assert any(expected in p for p in problems), (expected, problems)


def test_a_step_that_replaces_a_whole_axis_drops_what_the_figure_set_on_it():
    """Why the steps relayout an axis key by key: {'xaxis': {...}} replaces the axis, as it does in plotly.js."""
    figure = two_buttons(step([True, False], {"xaxis.range": [0, 1]}), step([False, True], {"xaxis.range": [0, 2]}),
                         layout={"xaxis": {"color": "#90a4ae", "range": [0, 1]}})
    assert control_problems("fig", *figure) == []
    whole = two_buttons(step([True, False], {"xaxis": {"range": [0, 1]}}), step([False, True], {"xaxis": {"range": [0, 2]}}),
                        layout={"xaxis": {"color": "#90a4ae", "range": [0, 1]}})
    assert any("first drawn" in p for p in control_problems("fig", *whole))

"""A check kit for attention masks: does a function leak the future, over-mask, read padding or cache badly?

Standalone: this file imports only numpy and the standard library, so a reader copies it alone into their tests.
Each check runs the function on seeded random rows, changes one row, runs it again and sees which outputs
moved. It returns a list of problems, one plain English sentence each (an empty list: none found). Positions
are 0-based row indices, written x[j] for an input row and y[i] for an output row. Each problem is a str that
also carries .kind and .positions (0-based), for a page that words it in another language:

    kind            positions       meaning
    "future"        (j, i, ...)     changing x[j] moves the earlier outputs y[i], ...
    "blind"         (i, j, ...)     y[i] does not move when x[j], ... (j <= i) change: over-masking
    "not_finite"    (i, ...)        y[i], ... hold NaN or inf
    "padding"       (p, i, ...)     changing the padded x[p] moves the real outputs y[i], ...
    "more_padding"  (i, ...)        appending padded rows moves the real outputs y[i], ...
    "cache"         (t,)            step t of the cached decoder disagrees with y[t] of the full pass
"""

import numpy as np

# What "moved" means. An output that does not read a row changes by rounding at most when that row changes:
# about 1e-16 of its size per float64 operation, well below 1e-12 through primer's decoder and its KV cache. An
# output that reads the row, even with an attention weight of e^-10 (4.5e-5), moves by about that weight times
# the change, and each change adds standard normal noise to a whole row. 1e-9 of the output's scale (its largest
# |value|, at least 1) lies far from both. For a function that computes in float32 (rounding about 1e-7), use 1e-4.
TOL = 1e-9


class Problem(str):
    """One problem found: its English sentence, with its kind and the 0-based positions it names."""

    def __new__(cls, kind, positions, sentence):
        problem = super().__new__(cls, sentence)
        problem.kind, problem.positions = kind, tuple(int(p) for p in positions)
        return problem


def check_causal(f, n=8, d=4, seed=0):  # f: x [n, d] -> y [n, d_out]; -> list of Problem
    """Check that y[i] reads x[0] .. x[i] and nothing later: change each x[j] alone and see which outputs move.

    Over-masking shows as an output that does not move. Attention so peaked that a key it may read gets a weight
    too small to move the output beyond TOL looks the same: check a model at its initial scale (weights about
    1/sqrt(d)), not a trained one. A sliding-window model is reported blind past its window: that is its design.
    """
    _need_callable("f", f)
    n, d, rng = _int("n", n, 2), _int("d", d, 1), _rng(seed)
    x = rng.standard_normal((n, d))
    y = _output(f, "f", (n,), x)
    moved, broken = np.empty((n, n)), ~np.isfinite(y).all(axis=1)  # moved[i, j]: how far y[i] moves as x[j] changes
    for j in range(n):
        y_j = _output(f, "f", y.shape, _changed(x, j, rng))
        moved[:, j], broken = _moved(y, y_j), broken | ~np.isfinite(y_j).all(axis=1)
    if broken.any():  # movements mean nothing once an output is NaN
        return [_not_finite(broken)]
    tol = _tol(y)
    problems = []
    for j in range(1, n):
        earlier = [i for i in range(j) if moved[i, j] > tol]
        if earlier:
            problems.append(
                Problem(
                    "future",
                    [j, *earlier],
                    f"changing x[{j}] moves the earlier {_rows('y', earlier, 'output')}: "
                    "a later position leaks into earlier ones",
                )
            )
    for i in range(n):
        ignored = [j for j in range(i + 1) if moved[i, j] <= tol]
        if ignored:
            problems.append(
                Problem(
                    "blind",
                    [i, *ignored],
                    f"y[{i}] does not move when {_rows('x', ignored, joiner='or')} changes, though position {i} "
                    f"may read positions 0 to {i}: over-masking",
                )
            )
    return problems


def check_padding(f, n=8, d=4, n_pad=3, seed=0):  # f: (x [n, d], valid [n] bool) -> y [n, d_out]; -> list of Problem
    """Check that padding (the last n_pad rows, valid False) never reaches a real row's output, and nothing is NaN."""
    _need_callable("f", f)
    n, d, rng = _int("n", n, 2), _int("d", d, 1), _rng(seed)
    n_pad = _int("n_pad", n_pad, 1)
    if n_pad >= n:
        raise ValueError(f"n_pad must be below n={n} (at least one real row), got {n_pad}")
    real = n - n_pad
    x, valid = rng.standard_normal((n, d)), np.arange(n) < real  # True: a real token
    y = _output(f, "f", (n,), x, valid)
    broken = ~np.isfinite(y).all(axis=1)
    problems = [_not_finite(broken)] if broken.any() else []  # padded rows count too
    if broken[:real].any():
        return problems
    tol = _tol(y[:real])
    for p in range(real, n):
        moved = _moved(y[:real], _output(f, "f", y.shape, _changed(x, p, rng), valid)[:real])
        hit = np.flatnonzero(moved > tol)
        if hit.size:
            problems.append(
                Problem(
                    "padding",
                    [p, *hit],
                    f"changing the padded x[{p}] moves the real {_rows('y', hit, 'output')}: padding leaks in",
                )
            )
    longer = np.vstack([x, rng.standard_normal((n_pad, d))])
    more = _output(f, "f", (n + n_pad, y.shape[1]), longer, np.arange(n + n_pad) < real)
    hit = np.flatnonzero(_moved(y[:real], more[:real]) > tol)
    if hit.size:
        problems.append(
            Problem(
                "more_padding",
                hit,
                f"appending {n_pad} more padded rows moves the real {_rows('y', hit, 'output')}",
            )
        )
    return problems


def check_cache(step, full, n=8, d=4, seed=0):  # step() -> (x_t [d] -> y_t [d_out]); full: x [n, d] -> y [n, d_out]
    """Check that a cached decoder, fed x[0], x[1], ... one row at a time, returns the full pass's y[0], y[1], ..."""
    _need_callable("step", step)
    _need_callable("full", full)
    n, d, rng = _int("n", n, 1), _int("d", d, 1), _rng(seed)
    x = rng.standard_normal((n, d))
    y = _output(full, "full", (n,), x)
    broken = ~np.isfinite(y).all(axis=1)
    if broken.any():
        return [_not_finite(broken)]
    decoder = step()  # a fresh decoder: an empty cache
    _need_callable("step", decoder, "step() must return a decoder, a callable taking one row x_t [d]")
    tol, problems = _tol(y), []
    for t in range(n):
        y_t = np.asarray(decoder(x[t].copy()), dtype=float)
        if y_t.shape != y.shape[1:]:
            raise ValueError(f"step's decoder must return y_t of shape {y.shape[1:]} (full's d_out), got {y_t.shape}")
        if _moved(y[t : t + 1], y_t[None])[0] > tol:
            problems.append(
                Problem(
                    "cache",
                    [t],
                    f"step {t} (fed x[{t}]) disagrees with the full pass's y[{t}] "
                    f"by more than {TOL:g} of the output's scale",
                )
            )
    return problems


# ---- helpers ----------------------------------------------------------------------------------------------------


def _need_callable(name, f, rule=None):
    """Raise ValueError naming the argument unless f is callable."""
    if not callable(f):
        raise ValueError(f"{rule or f'{name} must be callable'}, got {type(f).__name__}")


def _int(name, value, low):
    """Return value as an int, or raise ValueError unless it is an integer >= low (not a bool)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def _rng(seed):
    """Return numpy's generator for a seed that is an integer >= 0."""
    return np.random.default_rng(_int("seed", seed, 0))


def _output(f, name, shape, *args):  # -> [n, d_out]
    """Call f(*args) and return its output as floats, or raise ValueError naming f if the shape is not shape."""
    y = np.asarray(f(*(a.copy() for a in args)), dtype=float)  # copies: f may write into its input
    if y.ndim != 2 or y.shape[: len(shape)] != tuple(shape):
        want = "[" + ", ".join(map(str, shape)) + (", d_out]" if len(shape) == 1 else "]")
        raise ValueError(f"{name} must return an array of shape {want}, got shape {y.shape}")
    return y


def _changed(x, j, rng):  # [n, d] -> [n, d]
    """Return a copy of x whose row j has standard normal noise added."""
    x = x.copy()
    x[j] += rng.standard_normal(x.shape[1])
    return x


def _moved(y, y2):  # [n, d_out] x2 -> [n]
    """Return max |y2 - y| per row; a row where either holds NaN or inf moved infinitely."""
    with np.errstate(invalid="ignore"):
        diff = np.abs(y2 - y)
    return np.where(np.isfinite(diff), diff, np.inf).max(axis=1)


def _tol(y):  # [n, d_out] -> float
    """Return TOL times the output's scale: its largest |value|, at least 1."""
    return TOL * max(1.0, float(np.abs(y).max()))


def _rows(letter, rows, noun="", joiner="and"):  # -> "outputs y[1], y[2] and y[4]"
    """Name rows as letter[i], joined in English, after the noun (made plural for several rows)."""
    names = [f"{letter}[{int(i)}]" for i in rows]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {joiner} {names[-1]}"
    noun = noun + "s" * (len(names) > 1) if noun else ""
    return f"{noun} {listed}".strip()


def _not_finite(broken):  # [n] bool -> Problem
    """Return the problem naming the output rows that hold NaN or inf."""
    rows = np.flatnonzero(broken)
    verb = "holds" if rows.size == 1 else "hold"
    return Problem("not_finite", rows, f"{_rows('y', rows)} {verb} NaN or inf")

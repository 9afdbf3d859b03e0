"""The mask check kit for PyTorch: check_causal, check_padding and check_cache on float64 tensors.

The twin of primer/mask_checks.py: the same checks, sentences and tolerance; the rows are drawn by torch's
generator, so the numbers differ from numpy's but the verdicts are the same. Needs only torch. Positions are
0-based row indices, x[j] an input row and y[i] an output row; each problem is a str with .kind and .positions.
Call your model in float64 (model.double()): TOL is a float64 bound.
"""

import torch

TOL = 1e-9  # moved = beyond TOL x the output's scale (largest |value|, at least 1); float32 needs about 1e-4


class Problem(str):
    """One problem found: its English sentence, with its kind and the 0-based positions it names."""

    def __new__(cls, kind, positions, sentence):
        problem = super().__new__(cls, sentence)
        problem.kind, problem.positions = kind, tuple(int(p) for p in positions)
        return problem


@torch.no_grad()
def check_causal(f, n=8, d=4, seed=0):  # f: x [n, d] -> y [n, d_out]; -> list of Problem
    """Check that y[i] reads x[0] .. x[i] and nothing later: change each x[j] alone and see which outputs move."""
    _need_callable("f", f)
    n, d, gen = _int("n", n, 2), _int("d", d, 1), _generator(seed)
    x = _normal(gen, n, d)
    y = _output(f, "f", (n,), x)
    moved, broken = torch.empty(n, n, dtype=torch.float64), ~torch.isfinite(y).all(dim=1)
    for j in range(n):
        y_j = _output(f, "f", y.shape, _changed(x, j, gen))
        moved[:, j], broken = _moved(y, y_j), broken | ~torch.isfinite(y_j).all(dim=1)
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


@torch.no_grad()
def check_padding(f, n=8, d=4, n_pad=3, seed=0):  # f: (x [n, d], valid [n] bool) -> y [n, d_out]; -> list of Problem
    """Check that padding (the last n_pad rows, valid False) never reaches a real row's output, and nothing is NaN."""
    _need_callable("f", f)
    n, d, gen = _int("n", n, 2), _int("d", d, 1), _generator(seed)
    n_pad = _int("n_pad", n_pad, 1)
    if n_pad >= n:
        raise ValueError(f"n_pad must be below n={n} (at least one real row), got {n_pad}")
    real = n - n_pad
    x, valid = _normal(gen, n, d), torch.arange(n) < real  # True: a real token
    y = _output(f, "f", (n,), x, valid)
    broken = ~torch.isfinite(y).all(dim=1)
    problems = [_not_finite(broken)] if broken.any() else []  # padded rows count too
    if broken[:real].any():
        return problems
    tol = _tol(y[:real])
    for p in range(real, n):
        moved = _moved(y[:real], _output(f, "f", y.shape, _changed(x, p, gen), valid)[:real])
        hit = torch.nonzero(moved > tol).flatten().tolist()
        if hit:
            problems.append(
                Problem(
                    "padding",
                    [p, *hit],
                    f"changing the padded x[{p}] moves the real {_rows('y', hit, 'output')}: padding leaks in",
                )
            )
    longer = torch.cat([x, _normal(gen, n_pad, d)])
    more = _output(f, "f", (n + n_pad, y.shape[1]), longer, torch.arange(n + n_pad) < real)
    hit = torch.nonzero(_moved(y[:real], more[:real]) > tol).flatten().tolist()
    if hit:
        problems.append(
            Problem(
                "more_padding",
                hit,
                f"appending {n_pad} more padded rows moves the real {_rows('y', hit, 'output')}",
            )
        )
    return problems


@torch.no_grad()
def check_cache(step, full, n=8, d=4, seed=0):  # step() -> (x_t [d] -> y_t [d_out]); full: x [n, d] -> y [n, d_out]
    """Check that a cached decoder, fed x[0], x[1], ... one row at a time, returns the full pass's y[0], y[1], ..."""
    _need_callable("step", step)
    _need_callable("full", full)
    n, d, gen = _int("n", n, 1), _int("d", d, 1), _generator(seed)
    x = _normal(gen, n, d)
    y = _output(full, "full", (n,), x)
    broken = ~torch.isfinite(y).all(dim=1)
    if broken.any():
        return [_not_finite(broken)]
    decoder = step()  # a fresh decoder: an empty cache
    _need_callable("step", decoder, "step() must return a decoder, a callable taking one row x_t [d]")
    tol, problems = _tol(y), []
    for t in range(n):
        y_t = torch.as_tensor(decoder(x[t].clone())).to(torch.float64)
        if y_t.shape != y.shape[1:]:
            raise ValueError(
                f"step's decoder must return y_t of shape {tuple(y.shape[1:])} (full's d_out), got {tuple(y_t.shape)}"
            )
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
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return value


def _generator(seed):
    """Return torch's generator for a seed that is an integer >= 0."""
    return torch.Generator().manual_seed(_int("seed", seed, 0))


def _normal(gen, *shape):  # -> shape, float64
    """Draw standard normal numbers in float64."""
    return torch.randn(*shape, generator=gen, dtype=torch.float64)


def _output(f, name, shape, *args):  # -> [n, d_out]
    """Call f(*args) and return its output in float64, or raise ValueError naming f if the shape is not shape."""
    y = torch.as_tensor(f(*(a.clone() for a in args))).to(torch.float64)  # clones: f may write into its input
    if y.ndim != 2 or tuple(y.shape[: len(shape)]) != tuple(shape):
        want = "[" + ", ".join(map(str, shape)) + (", d_out]" if len(shape) == 1 else "]")
        raise ValueError(f"{name} must return an array of shape {want}, got shape {tuple(y.shape)}")
    return y


def _changed(x, j, gen):  # [n, d] -> [n, d]
    """Return a copy of x whose row j has standard normal noise added."""
    x = x.clone()
    x[j] += _normal(gen, x.shape[1])
    return x


def _moved(y, y2):  # [n, d_out] x2 -> [n]
    """Return max |y2 - y| per row; a row where either holds NaN or inf moved infinitely."""
    diff = (y2 - y).abs()
    return torch.where(torch.isfinite(diff), diff, torch.inf).amax(dim=1)


def _tol(y):  # [n, d_out] -> float
    """Return TOL times the output's scale: its largest |value|, at least 1."""
    return TOL * max(1.0, y.abs().max().item())


def _rows(letter, rows, noun="", joiner="and"):  # -> "outputs y[1], y[2] and y[4]"
    """Name rows as letter[i], joined in English, after the noun (made plural for several rows)."""
    names = [f"{letter}[{int(i)}]" for i in rows]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {joiner} {names[-1]}"
    noun = noun + "s" * (len(names) > 1) if noun else ""
    return f"{noun} {listed}".strip()


def _not_finite(broken):  # [n] bool -> Problem
    """Return the problem naming the output rows that hold NaN or inf."""
    rows = torch.nonzero(broken).flatten().tolist()
    verb = "holds" if len(rows) == 1 else "hold"
    return Problem("not_finite", rows, f"{_rows('y', rows)} {verb} NaN or inf")

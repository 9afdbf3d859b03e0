"""A check kit for attention masks: does a function leak, over-mask, read padding or cache badly?

Standalone: this file imports only numpy and the standard library, so a reader copies it alone into their tests.
Each check runs the function on seeded random rows, changes one row, runs it again and sees which outputs
moved. It returns a list of problems, one plain English sentence each (an empty list: none found). Positions
are 0-based row indices, written x[j] for an input row and y[i] for an output row; mask[i, j] True means y[i] may
read x[j]. Each problem is a str that also carries .kind and .positions (0-based), for a page that words it in
another language:

    kind            positions       meaning
    "future"        (j, i, ...)     changing x[j] moves the earlier outputs y[i], ... that the mask closes to it
    "leak"          (j, i, ...)     changing x[j] moves the outputs y[i], ... (i >= j) that the mask closes to it
    "blind"         (i, j, ...)     y[i] does not move when x[j], ... change, though the mask opens them: over-masking
    "suspect"       ()              what the pattern of moves points to (the mask transposed, inverted, off by one ...)
    "not_finite"    (i, ...)        y[i], ... hold NaN or inf
    "padding"       (p, i, ...)     changing the padded x[p] moves the real outputs y[i], ...
    "more_padding"  (i, ...)        adding padded rows moves the real outputs y[i], ...
    "alone"         (i, ...)        the real outputs y[i], ... differ from a run of the real tokens alone
    "cache"         (t,)            step t of the cached decoder disagrees with y[t] of the full pass
    "full"          ()              the full pass itself fails check_mask: fix it first

What "moved" means: beyond tol times the output's scale (its largest |value|, at least 1). tol=None takes it from
the output's dtype (default_tol): an output that does not read a row changes by rounding only, about 1e-16 of its
size per float64 operation and 1e-7 per float32 one; an output that reads the row, even with an attention weight
of e^-10 (4.5e-5), moves by about that weight times the change (standard normal noise on a whole row).
"""

import numpy as np


class Problem(str):
    """One problem found: its English sentence, with its kind and the 0-based positions it names."""

    def __new__(cls, kind, positions, sentence):
        problem = super().__new__(cls, sentence)
        problem.kind, problem.positions = kind, tuple(int(p) for p in positions)
        return problem


def default_tol(dtype):  # numpy dtype -> float
    """Return the tolerance for outputs of this dtype: 1e-9 for float64, 1e-4 for float32, 3e-2 for 16-bit floats."""
    dtype = np.dtype(dtype)
    eps = np.finfo(dtype).eps if np.issubdtype(dtype, np.floating) else np.finfo(float).eps
    return 1e-9 if eps < 1e-12 else 1e-4 if eps < 1e-5 else 3e-2


def check_mask(f, mask, *, d=4, seed=0, tol=None):  # f: x [n, d] -> y [n, d_out]; mask [n, n] bool -> [Problem]
    """Check that y[i] moves with x[j] exactly where mask[i, j] is True: change each x[j] alone and see what moves.

    Any mask: causal, a sliding window (with sinks), chunks, documents, a prefix, a tree. A leak is an output that
    moves where the mask is closed; over-masking is one that does not move where it is open. Attention so peaked
    that an open key's weight is below tol looks over-masked too: check a model at its initial scale (weights about
    1/sqrt(d)), not a trained one; and since the scale is at least 1, outputs far smaller than 1 hide their moves
    too. A stack of layers reads through each: pass what the stack reaches (a window of w keys, over L layers,
    reaches L(w - 1) + 1 keys back; causal, chunked, document, prefix-LM and tree masks reach no further than one
    layer does).
    """
    _need_callable("f", f)
    mask, _ = _mask(mask), _tol_share(tol, float)  # bad input is refused before f runs
    n, d, rng = len(mask), _int("d", d, 1), _rng(seed)
    x = rng.standard_normal((n, d))
    y, dtype = _output(f, "f", (n,), x)
    moved, broken = np.empty((n, n)), ~np.isfinite(y).all(axis=1)  # moved[i, j]: how far y[i] moves as x[j] changes
    for j in range(n):
        y_j = _output(f, "f", y.shape, _changed(x, j, rng))[0]
        moved[:, j], broken = _moved(y, y_j), broken | ~np.isfinite(y_j).all(axis=1)
    if broken.any():  # movements mean nothing once an output is NaN
        return [_not_finite(broken)]
    return _compare(moved > _tol(y, tol, dtype), mask)


def check_causal(f, n=8, d=4, seed=0, *, tol=None):  # f: x [n, d] -> y [n, d_out]; -> list of Problem
    """Check that y[i] reads x[0] .. x[i] and nothing later: check_mask with the causal mask of n positions."""
    n = _int("n", n, 2)
    return check_mask(f, np.tri(n, dtype=bool), d=d, seed=seed, tol=tol)


def check_padding(f, n=8, d=4, n_pad=3, seed=0, *, side="both", tol=None):  # f: (x [n, d], valid [n]) -> y [n, d_out]
    """Check that padding never reaches a real row: pad on the right, the left or both (side), as a batch pads.

    For each side: changing a padded row, or adding more, moves no real output; the real outputs equal a run of
    the real tokens alone (so a layer that numbers positions must count them from the first real token); nothing
    is NaN. valid[i] True marks a real token.
    """
    _need_callable("f", f)
    n, d, rng = _int("n", n, 2), _int("d", d, 1), _rng(seed)
    n_pad = _int("n_pad", n_pad, 1)
    if n_pad >= n:
        raise ValueError(f"n_pad must be below n={n} (at least one real row), got {n_pad}")
    if side not in ("both", "right", "left"):
        raise ValueError(f"side must be 'both', 'right' or 'left', got {side!r}")
    _tol_share(tol, float)
    problems = []
    for where in ("right", "left") if side == "both" else (side,):
        problems += _padding_side(f, rng.standard_normal((n, d)), n_pad, where, rng, tol)
    return problems


def check_cache(step, full, n=8, d=4, seed=0, *, mask=None, tol=None):  # step() -> (x_t [d] -> y_t); full: x -> y
    """Check that a cached decoder, fed x[0], x[1], ... one row at a time, returns the full pass's y[0], y[1], ...

    When a step disagrees, the full pass is checked too, against mask (default causal, [n, n] bool): if it is wrong
    itself, a "full" problem says so, since a correct cache cannot match a wrong full pass.
    """
    _need_callable("step", step)
    _need_callable("full", full)
    n, d, rng = _int("n", n, 1), _int("d", d, 1), _rng(seed)
    if mask is not None and _mask(mask).shape != (n, n):
        raise ValueError(f"mask must have shape ({n}, {n}) (n positions), got {np.shape(mask)}")
    x = rng.standard_normal((n, d))
    y, dtype = _output(full, "full", (n,), x)
    broken = ~np.isfinite(y).all(axis=1)
    if broken.any():
        return [_not_finite(broken)]
    decoder = step()  # a fresh decoder: an empty cache
    _need_callable("step", decoder, "step() must return a decoder, a callable taking one row x_t [d]")
    share = _tol_share(tol, dtype)
    scale, problems = share * max(1.0, float(np.abs(y).max())), []
    for t in range(n):
        y_t = np.asarray(decoder(x[t].copy()), dtype=float)
        if y_t.shape != y.shape[1:]:
            raise ValueError(f"step's decoder must return y_t of shape {y.shape[1:]} (full's d_out), got {y_t.shape}")
        if _moved(y[t : t + 1], y_t[None])[0] > scale:
            problems.append(
                Problem(
                    "cache",
                    [t],
                    f"step {t} (fed x[{t}]) disagrees with the full pass's y[{t}] by more than "
                    f"tol={share:g} of the output's scale",
                )
            )
    if problems and n >= 2:
        wrong = check_mask(full, np.tri(n, dtype=bool) if mask is None else mask, d=d, seed=seed, tol=tol)
        if wrong:
            problems.append(
                Problem(
                    "full",
                    [],
                    f"the full pass itself fails check_mask ({len(wrong)} problems, the first: {wrong[0]}): "
                    "fix it first, run check_mask on it",
                )
            )
    return problems


# ---- helpers ----------------------------------------------------------------------------------------------------


def _padding_side(f, x, n_pad, side, rng, tol):  # x [n, d] -> list of Problem for padding on one side
    """Run check_padding's three tests with the n_pad padded rows on one side."""
    n, d = x.shape
    real = n - n_pad
    valid = np.arange(n) < real if side == "right" else np.arange(n) >= n_pad
    y, dtype = _output(f, "f", (n,), x, valid)
    on = f"with the padding on the {side}, "
    broken = ~np.isfinite(y).all(axis=1)
    problems = [_not_finite(broken, on)] if broken.any() else []  # padded rows count too: NaN spreads
    if broken[valid].any():
        return problems
    scale, rows = _tol(y[valid], tol, dtype), np.flatnonzero(valid)
    for p in np.flatnonzero(~valid):
        hit = rows[_moved(y[valid], _output(f, "f", y.shape, _changed(x, p, rng), valid)[0][valid]) > scale]
        if hit.size:
            problems.append(
                Problem(
                    "padding",
                    [p, *hit],
                    f"{on}changing the padded x[{p}] moves the real {_rows('y', hit, 'output')}: padding leaks in "
                    "(suspect a padding mask on the query axis, or one computed and dropped)",
                )
            )
    extra = rng.standard_normal((n_pad, d))
    longer = np.vstack([x, extra] if side == "right" else [extra, x])
    more_valid = np.concatenate([valid, np.zeros(n_pad, bool)] if side == "right" else [np.zeros(n_pad, bool), valid])
    more = _output(f, "f", (n + n_pad, y.shape[1]), longer, more_valid)[0]
    hit = rows[_moved(y[valid], more[more_valid]) > scale]
    if hit.size:
        problems.append(
            Problem(
                "more_padding",
                hit,
                f"{on}adding {n_pad} more padded rows moves the real {_rows('y', hit, 'output')}",
            )
        )
    alone = _output(f, "f", (real, y.shape[1]), x[valid], np.ones(real, bool))[0]
    hit = rows[_moved(y[valid], alone) > scale]
    if hit.size:
        problems.append(
            Problem(
                "alone",
                hit,
                f"{on}the real {_rows('y', hit, 'output')} differ from a run of the real tokens alone: "
                "they read padding (or count positions from the pads)",
            )
        )
    return problems


def _compare(reads, mask):  # [n, n] bool x2 -> list of Problem
    """Name each leak (read where mask is closed) and each over-masked row (open, not read), with a suspect."""
    n, problems = len(mask), []
    for j in range(n):
        leaks = np.flatnonzero(reads[:, j] & ~mask[:, j])
        for kind, rows in (("future", leaks[leaks < j]), ("leak", leaks[leaks >= j])):
            if rows.size:
                problems.append(
                    Problem(
                        kind,
                        [j, *rows],
                        f"changing x[{j}] moves the {'earlier ' * (kind == 'future')}{_rows('y', rows, 'output')}, "
                        f"though the mask closes x[{j}] to {'them' if rows.size > 1 else 'it'}: "
                        + ("a later position leaks into earlier ones" if kind == "future" else "a leak"),
                    )
                )
    for i in range(n):
        ignored = np.flatnonzero(mask[i] & ~reads[i])
        if ignored.size:
            problems.append(
                Problem(
                    "blind",
                    [i, *ignored],
                    f"y[{i}] does not move when {_rows('x', ignored, joiner='or')} changes, "
                    f"though the mask lets it read {'them' if ignored.size > 1 else 'it'}: over-masking",
                )
            )
    suspect = _suspect(reads, mask) if problems else None
    return [Problem("suspect", [], suspect)] + problems if suspect else problems


def _suspect(reads, mask):  # [n, n] bool x2 -> str or None
    """Return what the pattern of what the outputs read points to, or None when it matches no known slip."""
    n = len(mask)
    causal = np.tri(n, dtype=bool)
    rows = (~mask).any(axis=1)  # an inverted mask leaves these rows something to read
    off = ~np.eye(n, dtype=bool)  # y[i] moves with x[i] through its own query, whatever the mask says
    if reads.all():
        return (
            "every output moves with every input: the mask closes nothing (suspect a mask dropped, applied to a "
            "copy, added as 0, or a fill too small)"
        )
    if np.array_equal(reads, mask.T):
        return "the outputs follow the mask transposed: suspect the query and key axes swapped"
    if rows.any() and np.array_equal((reads & off)[rows], (~mask & off)[rows]):
        return (
            "the outputs follow the mask inverted: suspect True read as closed (check your library's convention), "
            "or a fill that lies above the open scores"
        )
    if np.array_equal(reads, causal):
        return (
            "the outputs follow the plain causal mask, not the one expected: suspect the part that differs from it "
            "(window, prefix, documents, chunks, tree) not applied"
        )
    for w in range(1, n if np.array_equal(mask, causal) else 0):  # a window where the causal mask was expected
        if np.array_equal(reads, causal & ~np.tri(n, k=-w, dtype=bool)):
            return (
                f"the outputs follow a sliding window of {w} keys (the query's own included): if that is the design, "
                "check the layer with check_mask and that window's mask"
            )
    left = np.zeros_like(mask)  # left[i, j]: key j - 1 is open to query i
    left[:, 1:] = mask[:, :-1]
    right = np.zeros_like(mask)  # right[i, j]: key j + 1 is open to query i
    right[:, :-1] = mask[:, 1:]
    offset = np.arange(n)[None, :] - np.arange(n)[:, None]  # offset[i, j] = j - i
    for cells, edge, words in (
        (reads & ~mask, ~mask & (left | right), ("moves with", "opens one key too many")),
        (mask & ~reads, mask & ~(left & right), ("does not move with", "closes one key it should open")),
    ):
        k = np.unique(offset[cells])
        if k.size == 1 and cells.sum() >= 2 and np.array_equal(cells, edge & (offset == k[0])):
            i = "y[j]" if k[0] == 0 else f"y[j{-k[0]:+d}]"
            return f"{i} {words[0]} x[j] for every j: the mask {words[1]} (off by one)"
    return None


def _need_callable(name, f, rule=None):
    """Raise ValueError naming the argument unless f is callable."""
    if not callable(f):
        raise ValueError(f"{rule or f'{name} must be callable'}, got {type(f).__name__}")


def _int(name, value, low):
    """Return value as an int, or raise ValueError unless it is an integer >= low (not a bool)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def _mask(mask):  # -> [n, n] bool
    """Return mask as a bool array, or raise ValueError unless it is square, bool and at least 2 x 2."""
    mask = np.asarray(mask)
    if mask.dtype != bool or mask.ndim != 2 or mask.shape[0] != mask.shape[1] or len(mask) < 2:
        raise ValueError(
            f"mask must be a square bool array [n, n], n >= 2 (True: y[i] may read x[j]), "
            f"got dtype {mask.dtype} and shape {mask.shape}"
        )
    return mask


def _rng(seed):
    """Return numpy's generator for a seed that is an integer >= 0."""
    return np.random.default_rng(_int("seed", seed, 0))


def _output(f, name, shape, *args):  # -> (y [n, d_out] float64, the dtype f returned)
    """Call f(*args) and return its output as floats, or raise ValueError naming f if the shape is not shape."""
    raw = np.asarray(f(*(a.copy() for a in args)))  # copies: f may write into its input
    y = raw.astype(float)
    if y.ndim != 2 or y.shape[: len(shape)] != tuple(shape):
        want = "[" + ", ".join(map(str, shape)) + (", d_out]" if len(shape) == 1 else "]")
        raise ValueError(f"{name} must return an array of shape {want}, got shape {y.shape}")
    return y, raw.dtype


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


def _tol_share(tol, dtype):  # -> float
    """Return tol, or default_tol of the output's dtype when None; raise ValueError unless 0 < tol < 1."""
    if tol is None:
        return default_tol(dtype)
    if isinstance(tol, (bool, np.bool_)) or not isinstance(tol, (int, float, np.number)) or not 0 < tol < 1:
        raise ValueError(f"tol must be a number between 0 and 1 (a share of the output's scale) or None, got {tol!r}")
    return float(tol)


def _tol(y, tol, dtype):  # [n, d_out] -> float
    """Return the tolerance share times the output's scale: its largest |value|, at least 1."""
    return _tol_share(tol, dtype) * max(1.0, float(np.abs(y).max()))


def _rows(letter, rows, noun="", joiner="and"):  # -> "outputs y[1], y[2] and y[4]"
    """Name rows as letter[i], joined in English, after the noun (made plural for several rows)."""
    names = [f"{letter}[{int(i)}]" for i in rows]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {joiner} {names[-1]}"
    noun = noun + "s" * (len(names) > 1) if noun else ""
    return f"{noun} {listed}".strip()


def _not_finite(broken, on=""):  # [n] bool -> Problem
    """Return the problem naming the output rows that hold NaN or inf."""
    rows = np.flatnonzero(broken)
    verb = "holds" if rows.size == 1 else "hold"
    return Problem(
        "not_finite",
        rows,
        f"{on}{_rows('y', rows)} {verb} NaN or inf: suspect a row with every key closed (0/0 in the softmax), "
        "or a fill that overflows",
    )

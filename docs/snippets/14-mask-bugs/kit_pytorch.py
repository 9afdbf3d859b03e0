"""The mask check kit for PyTorch: check_mask, check_causal, check_padding and check_cache on tensors.

The twin of primer/mask_checks.py: the same checks, sentences and tolerances; the rows are drawn by torch's
generator, so the numbers differ from numpy's but the verdicts are the same. Needs only torch. Positions are
0-based row indices, x[j] an input row and y[i] an output row; mask[i, j] True means y[i] may read x[j]; each
problem is a str with .kind and .positions. The rows are fed in the layer's own dtype (an nn.Module's first floating
parameter, else float64) or in dtype=; tol=None takes the tolerance from the output's dtype (default_tol).
"""

import torch


class Problem(str):
    """One problem found: its English sentence, with its kind and the 0-based positions it names."""

    def __new__(cls, kind, positions, sentence):
        problem = super().__new__(cls, sentence)
        problem.kind, problem.positions = kind, tuple(int(p) for p in positions)
        return problem


def default_tol(dtype):  # torch dtype -> float
    """Return the tolerance for outputs of this dtype: 1e-9 for float64, 1e-4 for float32, 3e-2 for 16-bit floats."""
    eps = torch.finfo(dtype if dtype.is_floating_point else torch.float64).eps
    return 1e-9 if eps < 1e-12 else 1e-4 if eps < 1e-5 else 3e-2


@torch.no_grad()
def check_mask(f, mask, *, d=4, seed=0, tol=None, dtype=None):  # f: x [n, d] -> y [n, d_out]; mask [n, n] bool
    """Check that y[i] moves with x[j] exactly where mask[i, j] is True: change each x[j] alone and see what moves."""
    _need_callable("f", f)
    mask, _ = _mask(mask), _tol_share(tol, torch.float64)  # bad input is refused before f runs
    n, d, gen, dtype = len(mask), _int("d", d, 1), _generator(seed), _dtype(f, dtype)
    x = _normal(gen, n, d)
    y, out = _output(f, "f", (n,), dtype, x)
    moved, broken = torch.empty(n, n, dtype=torch.float64), ~torch.isfinite(y).all(dim=1)
    for j in range(n):
        y_j = _output(f, "f", y.shape, dtype, _changed(x, j, gen))[0]
        moved[:, j], broken = _moved(y, y_j), broken | ~torch.isfinite(y_j).all(dim=1)
    if broken.any():  # movements mean nothing once an output is NaN
        return [_not_finite(broken)]
    return _compare(moved > _tol(y, tol, out), mask)


def check_causal(f, n=8, d=4, seed=0, *, tol=None, dtype=None):  # f: x [n, d] -> y [n, d_out]; -> list of Problem
    """Check that y[i] reads x[0] .. x[i] and nothing later: check_mask with the causal mask of n positions."""
    n = _int("n", n, 2)
    return check_mask(f, torch.ones(n, n, dtype=torch.bool).tril(), d=d, seed=seed, tol=tol, dtype=dtype)


@torch.no_grad()
def check_padding(f, n=8, d=4, n_pad=3, seed=0, *, side="both", tol=None, dtype=None):  # f: (x [n, d], valid [n])
    """Check that padding never reaches a real row: pad on the right, the left or both (side), as a batch pads."""
    _need_callable("f", f)
    n, d, gen = _int("n", n, 2), _int("d", d, 1), _generator(seed)
    n_pad = _int("n_pad", n_pad, 1)
    if n_pad >= n:
        raise ValueError(f"n_pad must be below n={n} (at least one real row), got {n_pad}")
    if side not in ("both", "right", "left"):
        raise ValueError(f"side must be 'both', 'right' or 'left', got {side!r}")
    _tol_share(tol, torch.float64)
    dtype, problems = _dtype(f, dtype), []
    for where in ("right", "left") if side == "both" else (side,):
        problems += _padding_side(f, _normal(gen, n, d), n_pad, where, gen, tol, dtype)
    return problems


@torch.no_grad()
def check_cache(step, full, n=8, d=4, seed=0, *, mask=None, tol=None, dtype=None):  # step() -> (x_t [d] -> y_t)
    """Check that a cached decoder, fed x[0], x[1], ... one row at a time, returns the full pass's y[0], y[1], ..."""
    _need_callable("step", step)
    _need_callable("full", full)
    n, d, gen, dtype = _int("n", n, 1), _int("d", d, 1), _generator(seed), _dtype(full, dtype)
    if mask is not None and tuple(_mask(mask).shape) != (n, n):
        raise ValueError(f"mask must have shape ({n}, {n}) (n positions), got {tuple(torch.as_tensor(mask).shape)}")
    x = _normal(gen, n, d)
    y, out = _output(full, "full", (n,), dtype, x)
    broken = ~torch.isfinite(y).all(dim=1)
    if broken.any():
        return [_not_finite(broken)]
    decoder = step()  # a fresh decoder: an empty cache
    _need_callable("step", decoder, "step() must return a decoder, a callable taking one row x_t [d]")
    share = _tol_share(tol, out)
    scale, problems = share * max(1.0, y.abs().max().item()), []
    for t in range(n):
        y_t = torch.as_tensor(decoder(x[t].to(dtype, copy=True))).to(torch.float64)
        if y_t.shape != y.shape[1:]:
            raise ValueError(
                f"step's decoder must return y_t of shape {tuple(y.shape[1:])} (full's d_out), got {tuple(y_t.shape)}"
            )
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
        expected = torch.ones(n, n, dtype=torch.bool).tril() if mask is None else mask
        wrong = check_mask(full, expected, d=d, seed=seed, tol=tol, dtype=dtype)
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


def _padding_side(f, x, n_pad, side, gen, tol, dtype):  # x [n, d] -> list of Problem for padding on one side
    """Run check_padding's three tests with the n_pad padded rows on one side."""
    n, d = x.shape
    real = n - n_pad
    valid = torch.arange(n) < real if side == "right" else torch.arange(n) >= n_pad
    y, out = _output(f, "f", (n,), dtype, x, valid)
    on = f"with the padding on the {side}, "
    broken = ~torch.isfinite(y).all(dim=1)
    problems = [_not_finite(broken, on)] if broken.any() else []  # padded rows count too: NaN spreads
    if broken[valid].any():
        return problems
    scale, rows = _tol(y[valid], tol, out), torch.nonzero(valid).flatten()
    for p in torch.nonzero(~valid).flatten().tolist():
        moved = _moved(y[valid], _output(f, "f", y.shape, dtype, _changed(x, p, gen), valid)[0][valid])
        hit = rows[moved > scale].tolist()
        if hit:
            problems.append(
                Problem(
                    "padding",
                    [p, *hit],
                    f"{on}changing the padded x[{p}] moves the real {_rows('y', hit, 'output')}: padding leaks in "
                    "(suspect a padding mask on the query axis, or one computed and dropped)",
                )
            )
    extra, no = _normal(gen, n_pad, d), torch.zeros(n_pad, dtype=torch.bool)
    longer = torch.cat([x, extra] if side == "right" else [extra, x])
    more_valid = torch.cat([valid, no] if side == "right" else [no, valid])
    more = _output(f, "f", (n + n_pad, y.shape[1]), dtype, longer, more_valid)[0]
    hit = rows[_moved(y[valid], more[more_valid]) > scale].tolist()
    if hit:
        problems.append(
            Problem(
                "more_padding", hit, f"{on}adding {n_pad} more padded rows moves the real {_rows('y', hit, 'output')}"
            )
        )
    alone = _output(f, "f", (real, y.shape[1]), dtype, x[valid], torch.ones(real, dtype=torch.bool))[0]
    hit = rows[_moved(y[valid], alone) > scale].tolist()
    if hit:
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
        leaks = torch.nonzero(reads[:, j] & ~mask[:, j]).flatten()
        for kind, rows in (("future", leaks[leaks < j]), ("leak", leaks[leaks >= j])):
            if rows.numel():
                problems.append(
                    Problem(
                        kind,
                        [j, *rows.tolist()],
                        f"changing x[{j}] moves the {'earlier ' * (kind == 'future')}{_rows('y', rows, 'output')}, "
                        f"though the mask closes x[{j}] to {'them' if rows.numel() > 1 else 'it'}: "
                        + ("a later position leaks into earlier ones" if kind == "future" else "a leak"),
                    )
                )
    for i in range(n):
        ignored = torch.nonzero(mask[i] & ~reads[i]).flatten()
        if ignored.numel():
            problems.append(
                Problem(
                    "blind",
                    [i, *ignored.tolist()],
                    f"y[{i}] does not move when {_rows('x', ignored, joiner='or')} changes, "
                    f"though the mask lets it read {'them' if ignored.numel() > 1 else 'it'}: over-masking",
                )
            )
    suspect = _suspect(reads, mask) if problems else None
    return [Problem("suspect", [], suspect)] + problems if suspect else problems


def _suspect(reads, mask):  # [n, n] bool x2 -> str or None
    """Return what the pattern of what the outputs read points to, or None when it matches no known slip."""
    n = len(mask)
    causal = torch.ones(n, n, dtype=torch.bool).tril()
    rows = (~mask).any(dim=1)  # an inverted mask leaves these rows something to read
    off = ~torch.eye(n, dtype=torch.bool)  # y[i] moves with x[i] through its own query, whatever the mask says
    if reads.all():
        return (
            "every output moves with every input: the mask closes nothing (suspect a mask dropped, applied to a "
            "copy, added as 0, or a fill too small)"
        )
    if torch.equal(reads, mask.T):
        return "the outputs follow the mask transposed: suspect the query and key axes swapped"
    if rows.any() and torch.equal((reads & off)[rows], (~mask & off)[rows]):
        return (
            "the outputs follow the mask inverted: suspect True read as closed (check your library's convention), "
            "or a fill that lies above the open scores"
        )
    if torch.equal(reads, causal):
        return (
            "the outputs follow the plain causal mask, not the one expected: suspect the part that differs from it "
            "(window, prefix, documents, chunks, tree) not applied"
        )
    for w in range(1, n if torch.equal(mask, causal) else 0):  # a window where the causal mask was expected
        if torch.equal(reads, causal & ~torch.ones(n, n, dtype=torch.bool).tril(-w)):
            return (
                f"the outputs follow a sliding window of {w} keys (the query's own included): if that is the design, "
                "check the layer with check_mask and that window's mask"
            )
    left = torch.zeros_like(mask)  # left[i, j]: key j - 1 is open to query i
    left[:, 1:] = mask[:, :-1]
    right = torch.zeros_like(mask)  # right[i, j]: key j + 1 is open to query i
    right[:, :-1] = mask[:, 1:]
    offset = torch.arange(n)[None, :] - torch.arange(n)[:, None]  # offset[i, j] = j - i
    for cells, edge, words in (
        (reads & ~mask, ~mask & (left | right), ("moves with", "opens one key too many")),
        (mask & ~reads, mask & ~(left & right), ("does not move with", "closes one key it should open")),
    ):
        k = torch.unique(offset[cells])
        if k.numel() == 1 and cells.sum() >= 2 and torch.equal(cells, edge & (offset == k[0])):
            k = int(k[0])
            i = "y[j]" if k == 0 else f"y[j{-k:+d}]"
            return f"{i} {words[0]} x[j] for every j: the mask {words[1]} (off by one)"
    return None


def _need_callable(name, f, rule=None):
    """Raise ValueError naming the argument unless f is callable."""
    if not callable(f):
        raise ValueError(f"{rule or f'{name} must be callable'}, got {type(f).__name__}")


def _int(name, value, low):
    """Return value as an int, or raise ValueError unless it is an integer >= low (not a bool)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    return value


def _mask(mask):  # -> [n, n] bool tensor
    """Return mask as a bool tensor, or raise ValueError unless it is square, bool and at least 2 x 2."""
    mask = torch.as_tensor(mask)
    if mask.dtype != torch.bool or mask.ndim != 2 or mask.shape[0] != mask.shape[1] or len(mask) < 2:
        raise ValueError(
            f"mask must be a square bool array [n, n], n >= 2 (True: y[i] may read x[j]), "
            f"got dtype {mask.dtype} and shape {tuple(mask.shape)}"
        )
    return mask.cpu()


def _dtype(f, dtype):  # -> torch floating dtype
    """Return dtype, else an nn.Module's first floating parameter's dtype, else float64."""
    if dtype is None and isinstance(f, torch.nn.Module):
        dtype = next((p.dtype for p in f.parameters() if p.dtype.is_floating_point), None)
    dtype = torch.float64 if dtype is None else dtype
    if not isinstance(dtype, torch.dtype) or not dtype.is_floating_point:
        raise ValueError(f"dtype must be a floating torch dtype (the rows fed to the layer), got {dtype!r}")
    return dtype


def _generator(seed):
    """Return torch's generator for a seed that is an integer >= 0."""
    return torch.Generator().manual_seed(_int("seed", seed, 0))


def _normal(gen, *shape):  # -> shape, float64
    """Draw standard normal numbers in float64."""
    return torch.randn(*shape, generator=gen, dtype=torch.float64)


def _output(f, name, shape, dtype, x, *rest):  # -> (y [n, d_out] float64, the dtype f returned)
    """Call f on x in dtype (and rest), return its output in float64; raise ValueError if the shape is not shape."""
    raw = torch.as_tensor(f(x.to(dtype, copy=True), *(a.clone() for a in rest)))  # copies: f may write into them
    y = raw.detach().to(torch.float64)
    if y.ndim != 2 or tuple(y.shape[: len(shape)]) != tuple(shape):
        want = "[" + ", ".join(map(str, shape)) + (", d_out]" if len(shape) == 1 else "]")
        raise ValueError(f"{name} must return an array of shape {want}, got shape {tuple(y.shape)}")
    return y, raw.dtype


def _changed(x, j, gen):  # [n, d] -> [n, d]
    """Return a copy of x whose row j has standard normal noise added."""
    x = x.clone()
    x[j] += _normal(gen, x.shape[1])
    return x


def _moved(y, y2):  # [n, d_out] x2 -> [n]
    """Return max |y2 - y| per row; a row where either holds NaN or inf moved infinitely."""
    diff = (y2 - y).abs()
    return torch.where(torch.isfinite(diff), diff, torch.inf).amax(dim=1)


def _tol_share(tol, dtype):  # -> float
    """Return tol, or default_tol of the output's dtype when None; raise ValueError unless 0 < tol < 1."""
    if tol is None:
        return default_tol(dtype)
    if isinstance(tol, bool) or not isinstance(tol, (int, float)) or not 0 < tol < 1:
        raise ValueError(f"tol must be a number between 0 and 1 (a share of the output's scale) or None, got {tol!r}")
    return float(tol)


def _tol(y, tol, dtype):  # [n, d_out] -> float
    """Return the tolerance share times the output's scale: its largest |value|, at least 1."""
    return _tol_share(tol, dtype) * max(1.0, y.abs().max().item())


def _rows(letter, rows, noun="", joiner="and"):  # -> "outputs y[1], y[2] and y[4]"
    """Name rows as letter[i], joined in English, after the noun (made plural for several rows)."""
    names = [f"{letter}[{int(i)}]" for i in rows]
    listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} {joiner} {names[-1]}"
    noun = noun + "s" * (len(names) > 1) if noun else ""
    return f"{noun} {listed}".strip()


def _not_finite(broken, on=""):  # [n] bool -> Problem
    """Return the problem naming the output rows that hold NaN or inf."""
    rows = torch.nonzero(broken).flatten().tolist()
    verb = "holds" if len(rows) == 1 else "hold"
    return Problem(
        "not_finite",
        rows,
        f"{on}{_rows('y', rows)} {verb} NaN or inf: suspect a row with every key closed (0/0 in the softmax), "
        "or a fill that overflows",
    )

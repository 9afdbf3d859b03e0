"""Compare a reader's answer with primer's: each function returns why they differ, in the page's language, or None."""

import numpy as np

from primer.language import labels

TOL = 1e-9  # float answers: two correct formulas differ by rounding, far below this


def message(key, **kw):
    """Return the notebook's message `key` in the page's language, filled with kw."""
    return labels("exercises")[key].format(**kw)


def _shape(got, want):
    got = np.asarray(got)
    return None if got.shape == want.shape else message("shape", got=got.shape, want=want.shape)


def same_mask(got, want):
    """Return why the bool mask got differs from want, or None."""
    if (why := _shape(got, want)) is not None:
        return why
    got = np.asarray(got)
    if got.dtype != bool:
        return message("dtype", got=got.dtype)
    for i, j in zip(*np.nonzero(got != want)):
        return message("opens" if got[i, j] else "closes", i=int(i), j=int(j))
    return None


def same_array(got, want):
    """Return why the float array got differs from want (shape, NaN, first far value), or None."""
    try:
        got = np.asarray(got, dtype=float)
    except (TypeError, ValueError):
        return message("type", got=type(got).__name__, want="ndarray")
    if (why := _shape(got, want)) is not None:
        return why
    if not np.all(np.isfinite(got)):
        return message("nan")
    far = np.abs(got - want) > TOL * (1 + np.abs(want))
    for at in zip(*np.nonzero(far)):
        at = tuple(int(a) for a in at)
        return message("value", at=at if len(at) > 1 else at[0], got=got[at], want=want[at])
    return None


def same_weights(got, want, mask=None):
    """Return why weights got differ: shape, NaN, a closed key's weight not 0, a row not summing to 1, a value."""
    if (why := _shape(got, want)) is not None:
        return why
    got = np.asarray(got, dtype=float)
    if not np.all(np.isfinite(got)):
        return message("nan")
    rows = got.reshape(-1, got.shape[-1])
    if mask is not None:
        closed = ~np.broadcast_to(mask, got.shape).reshape(rows.shape)
        for i, j in zip(*np.nonzero(closed & (rows != 0))):
            return message("masked_weight", i=int(i), j=int(j), w=rows[i, j])
    sums = rows.sum(axis=-1)
    for i in np.nonzero(np.abs(sums - 1) > 1e-6)[0]:
        return message("row_sum", i=int(i), s=sums[i])
    return same_array(got, want)


def same_value(got, want):
    """Return why got is not equal to want (ints, strings, lists), or None."""
    if (
        isinstance(want, (int, np.integer))
        and not isinstance(got, (int, np.integer))
        or isinstance(got, bool) != isinstance(want, bool)
    ):
        return message("type", got=type(got).__name__, want=type(want).__name__)
    if isinstance(want, (list, tuple)):
        got = list(got) if isinstance(got, (list, tuple)) else got
        want = list(want)
    return None if got == want else message("equal", got=got, want=want)


def same_parts(compare):
    """Return a comparison of tuples, part by part, each with compare (None parts must be None)."""

    def parts(got, want):
        if not isinstance(got, tuple) or len(got) != len(want):
            return message("type", got=type(got).__name__, want=f"tuple of {len(want)}")
        for k, (g, w) in enumerate(zip(got, want)):
            why = same_value(g, None) if w is None else compare(g, w)
            if why is not None:
                return message("part", k=k, why=why)
        return None

    return parts


def same_number(got, want):
    """Return why the number got differs from the number want (not a single number, NaN, far value), or None."""
    if isinstance(got, (str, bytes)) or np.ndim(got) != 0:
        return message("type", got=type(got).__name__, want="float")
    try:
        got = float(got)
    except (TypeError, ValueError):
        return message("type", got=type(got).__name__, want="float")
    if not np.isfinite(got):
        return message("nan")
    return None if abs(got - want) <= TOL * (1 + abs(want)) else message("equal", got=got, want=float(want))

"""Float64 rounding: when two computations that agree in exact arithmetic count as equal.

Two orders of the same sums can round differently: a BLAS picks its kernel by matrix shape and CPU,
so K for n rows and the first n rows of K for n + 1 rows may differ in the last bit. On the toy
models of this primer every value is of order 1, where float64 rounding is about 1e-16; a real
change (a token that was read) is many orders larger. Pages print a difference below the bound as
"< 1e-12" instead of its digits, which depend on the reader's CPU.
"""

import numpy as np

BOUND = 1e-12  # far above float64 rounding on O(1) values (~1e-16), far below any real change (>= 1e-3 here)


def is_rounding(x):  # float or array -> bool
    """Return True if every |x| is below BOUND: the difference is rounding, not a change."""
    x = np.abs(np.asarray(x, dtype=float))
    if np.isnan(x).any():
        raise ValueError("x must not be NaN: a NaN difference is neither rounding nor a change")
    return bool((x < BOUND).all())

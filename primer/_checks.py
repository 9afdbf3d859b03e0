"""Input checks shared by every module: each raises ValueError naming the argument and the rule."""

import numbers

import numpy as np


def int_at_least(name, value, low):
    """Return value as an int, or raise unless it is an integer >= low (bools are not integers here)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
    if value < low:
        raise ValueError(f"{name} must be an integer >= {low}, got {value}")
    return int(value)


def positive_int(name, value):
    """Return value as an int, or raise unless it is an integer >= 1."""
    return int_at_least(name, value, 1)


def nonneg_int(name, value):
    """Return value as an int, or raise unless it is an integer >= 0."""
    return int_at_least(name, value, 0)


def float_array(name, value, *, min_ndim=1, keep_float32=False):
    """Return value as a float array, or raise if it is non-numeric, too flat, or not finite.

    keep_float32: a float32 array stays float32 (a real model's weights and activations); anything else is float64.
    """
    dtype = np.float32 if keep_float32 and getattr(value, "dtype", None) == np.float32 else float
    try:
        arr = np.asarray(value, dtype=dtype)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be an array of numbers") from None
    if arr.ndim < min_ndim:
        raise ValueError(f"{name} must have at least {min_ndim} dimension(s), got ndim={arr.ndim}")
    if arr.size == 0:
        raise ValueError(f"{name} must not be empty, got shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        raise ValueError(f"{name} must be finite (no NaN or inf)")
    return arr


def bool_mask(name, value, target_shape):
    """Return value as a bool array that broadcasts to target_shape without growing it."""
    mask = np.asarray(value)
    if mask.dtype != bool:
        raise ValueError(f"{name} must be a bool array (True: query i may read key j), got dtype {mask.dtype}")
    try:
        shape = np.broadcast_shapes(mask.shape, target_shape)
    except ValueError:
        shape = None
    if shape != tuple(target_shape):
        raise ValueError(f"{name} has shape {mask.shape}, which does not match the scores' shape {tuple(target_shape)}")
    return mask

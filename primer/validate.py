"""The arguments of training and of a model's loss, checked: each validate_* returns its argument or raises ValueError.

Each message names the argument and the rule it breaks (tests/test_bad_input.py holds every case).
"""

import numpy as np

from primer._checks import float_array
from primer.backprop import MaskedFill


def validate_batch(tokens, targets, cfg):  # [b, n] or [n], same -> ([b, n] int, [b, n] int)
    """Return tokens and their next-token targets as [batch, n] int arrays of ids, or raise ValueError."""
    out = []
    for name, value in (("tokens", tokens), ("targets", targets)):
        ids = np.asarray(value)
        if ids.ndim not in (1, 2) or ids.size == 0 or not np.issubdtype(ids.dtype, np.integer):
            raise ValueError(
                f"{name} must be a non-empty [batch, n] array of integer ids, got shape {ids.shape}, dtype {ids.dtype}"
            )
        if ids.min() < 0 or ids.max() >= cfg.vocab_size:
            raise ValueError(
                f"{name} must be ids in [0, {cfg.vocab_size}) (the vocabulary), got min {ids.min()}, max {ids.max()}"
            )
        out.append(np.atleast_2d(ids))
    tokens, targets = out
    if targets.shape != tokens.shape:
        raise ValueError(
            f"targets must have the shape of tokens, one target per token, got {targets.shape} and {tokens.shape}"
        )
    if cfg.max_len is not None and tokens.shape[1] > cfg.max_len:
        raise ValueError(f"tokens must be at most max_len={cfg.max_len} long (axis 1), got n={tokens.shape[1]}")
    return tokens, targets


def validate_mask(
    mask, n, m=None, name="mask"
):  # [n, m] bool | [n, m] float | MaskedFill -> the same form, [1, 1, n, m] (broadcasts over batch, heads)
    """Return mask in one of the three forms of primer.backprop, shaped for the scores, or raise ValueError.

    m is the number of keys (None: n, a self mask); name is the argument the messages name.
    """
    m = n if m is None else m
    fill = isinstance(mask, MaskedFill)
    label = f"{name}.mask" if fill else name
    arr = np.asarray(mask.mask if fill else mask)
    if fill and arr.dtype != bool:
        raise ValueError(f"{label} must be a bool array (True: query i may read key j), got dtype {arr.dtype}")
    if arr.dtype != bool and not np.issubdtype(arr.dtype, np.floating):
        raise ValueError(
            f"{name} must be a bool array (True: query i may read key j) or a float array added to the scores "
            f"(0 open, -inf closed), got dtype {arr.dtype}"
        )
    if arr.shape != (n, m):
        shape = "[n, n]" if m == n else "[n, m]"
        raise ValueError(
            f"{label} must have shape {shape} = ({n}, {m}), one row per query and a column per key, got {arr.shape}"
        )
    if fill:
        try:
            value = float(mask.value)
        except (TypeError, ValueError):
            value = np.nan
        if np.isnan(value) or value == np.inf:
            raise ValueError(f"{name}.value must be a number or -inf, got {mask.value!r}")
        opened = arr | np.isfinite(value)  # a finite value leaves every key readable
    elif arr.dtype == bool:
        opened = arr
    else:
        if np.isnan(arr).any() or (arr == np.inf).any():
            raise ValueError(f"{name} (a float array added to the scores) must hold numbers or -inf, no NaN or +inf")
        opened = np.isfinite(arr)
    if not opened.any(axis=-1).all():
        raise ValueError(f"{label} leaves a row with no open key; under -inf its softmax is 0/0 (NaN)")
    arr = arr.reshape(1, 1, n, m)
    return MaskedFill(arr, value) if fill else arr


def validate_loss_weights(loss_weights, tokens):  # [b, n] or [n] -> [b, n] float
    """Return the per-position loss weights as a [batch, n] float array, or raise ValueError."""
    w = np.atleast_2d(float_array("loss_weights", loss_weights, min_ndim=1))
    if w.shape != tokens.shape:
        raise ValueError(
            f"loss_weights must have the shape of tokens, one weight per token, got {w.shape} and {tokens.shape}"
        )
    if (w < 0).any() or not (w.sum(axis=1) > 0).all():
        raise ValueError(
            "loss_weights must be >= 0 with a positive sum in every row (0: this position's loss is not counted)"
        )
    return w


def validate_params(params, cfg, name="params"):  # -> params
    """Return params if they are a decoder's weights of shape cfg (transformer.init_stack), or raise ValueError."""
    wte = np.shape(params["wte"])
    if wte != (cfg.vocab_size, cfg.d_model):
        raise ValueError(
            f"{name}['wte'] must have shape [vocab_size, d_model] = ({cfg.vocab_size}, {cfg.d_model}), got {wte}"
        )
    if any("cross" in p for p in params["blocks"]):
        raise ValueError(
            f"{name} must be a decoder's weights (init_stack without cross=True): training reads no encoder"
        )
    return params


def validate_lr(lr):  # -> float
    """Return lr as a float, or raise unless it is a finite number > 0."""
    value = float(float_array("lr", lr, min_ndim=0))
    if value <= 0:
        raise ValueError(f"lr must be a finite number > 0, got {value}")
    return value

"""Adam, as torch.optim.Adam takes a step (no weight decay), on nested dicts and lists of arrays.

params["wpe"] is the sinusoidal table, not a weight: it gets no gradient and Adam leaves it (FIXED).
"""

import numpy as np

from primer.validate import validate_lr

FIXED = ("wpe",)  # entries of params that are not trained


def tree_map(f, *trees):  # nested dicts and lists of arrays -> the same nesting
    """Apply f leaf by leaf to trees of the same nesting as the first one (extra keys in the others are ignored)."""
    first = trees[0]
    if isinstance(first, dict):
        return {key: tree_map(f, *(t[key] for t in trees)) for key in first}
    if isinstance(first, list):
        return [tree_map(f, *leaves) for leaves in zip(*trees)]
    return f(*trees)


def trained(params):  # -> params without the fixed entries
    """Return the part of params that training changes (everything but the sinusoidal positions)."""
    return {key: value for key, value in params.items() if key not in FIXED}


def adam_init(params):  # -> state
    """Return Adam's state before its first step: zero moments, step 0."""
    zeros = tree_map(np.zeros_like, trained(params))
    return {"step": 0, "m": zeros, "v": tree_map(np.zeros_like, zeros)}


def adam_step(params, grads, state, lr, *, betas=(0.9, 0.999), eps=1e-8):  # -> (params, state)
    """Return new params and state after one Adam step, as torch.optim.Adam takes it (no weight decay)."""
    lr = validate_lr(lr)
    b1, b2 = (float(b) for b in betas)
    if not (0 <= b1 < 1 and 0 <= b2 < 1):
        raise ValueError(f"betas must be two numbers in [0, 1), got {betas}")
    if not (np.isfinite(eps) and eps > 0):
        raise ValueError(f"eps must be a finite number > 0, got {eps}")
    t = state["step"] + 1
    m = tree_map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)  # mean of the gradients
    v = tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)  # mean of their squares
    step_size, root = lr / (1 - b1**t), np.sqrt(1 - b2**t)  # both moments start at 0: unbias them
    new = tree_map(lambda p, m, v: p - step_size * m / (np.sqrt(v) / root + eps), trained(params), m, v)
    return params | new, {"step": t, "m": m, "v": v}

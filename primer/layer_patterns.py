"""Stacks of local and global layers: which positions an output can reach after L layers, and what each layer caches.

One layer lets query i read the keys its mask opens; the residual keeps its own row too. After L layers,
output i depends on position j iff a chain i -> ... -> j of open entries runs through the layers: the boolean
product of the layers' masks (each with its diagonal).
"""

from dataclasses import replace

import numpy as np

from primer._checks import nonneg_int, positive_int
from primer.config import Config
from primer.counts import kv_cache_bytes
from primer.masks import causal_mask, chunked_mask, window_mask

# a sliding-window layer, a causal layer that reads every earlier position, or a chunked layer (chunked_mask)
KINDS = ("local", "global", "chunked")


def reachable(masks):  # list of [n, n] -> [n, n]
    """Return which positions j each output i depends on after the layers, the first mask applied first."""
    if isinstance(masks, np.ndarray) and masks.ndim == 2:
        masks = [masks]
    masks = [np.asarray(m) for m in masks]
    if not masks:
        raise ValueError("masks must hold at least one layer's mask")
    n = masks[0].shape[0] if masks[0].ndim == 2 else -1
    for m in masks:
        if m.dtype != bool or m.shape != (n, n) or n < 1:
            raise ValueError(f"masks must be square bool [n, n] arrays of one size, got {m.dtype}, {m.shape}")
    reach = np.eye(n, dtype=bool)
    for m in masks:  # reach_l[i, j] = any_k (m | I)[i, k] & reach_{l-1}[k, j]
        step = (m | np.eye(n, dtype=bool)).astype(np.int64)
        reach = (step @ reach.astype(np.int64)) > 0
    return reach


def interleaved_kinds(n_layers, local_per_global, *, local="local"):  # -> tuple of KINDS
    """Return the kind of each layer: local_per_global local layers, then one global, repeated; 0: all global.

    local_per_global=None gives a stack of local layers only; local="chunked" makes the local layers chunked ones.
    """
    n_layers = positive_int("n_layers", n_layers)
    if local not in ("local", "chunked"):
        raise ValueError(f"local must be 'local' or 'chunked', got {local!r}")
    if local_per_global is None:
        return (local,) * n_layers
    k = nonneg_int("local_per_global", local_per_global)
    return tuple("global" if (i + 1) % (k + 1) == 0 else local for i in range(n_layers))


def layer_masks(n, kinds, window, *, sinks=0, chunk=None):  # -> list of [n, n]
    """Return one mask per layer: window_mask(n, window, sinks=sinks), causal_mask(n) or chunked_mask(n, chunk)."""
    kinds = _kinds(kinds, chunk)
    masks = {"local": window_mask(n, window, sinks=sinks), "global": causal_mask(n)}
    if "chunked" in kinds:
        masks["chunked"] = chunked_mask(n, chunk)
    return [masks[kind] for kind in kinds]


def _kinds(kinds, chunk):  # -> tuple of KINDS
    """Return kinds as a tuple, or raise unless each is one of KINDS and a chunk is given when a layer is chunked."""
    kinds = tuple(kinds)
    if not kinds or any(kind not in KINDS for kind in kinds):
        raise ValueError(f"kinds must be a non-empty sequence of {KINDS}, got {kinds!r}")
    if "chunked" in kinds:
        positive_int("chunk", chunk)
    return kinds


def lookback(reach):  # [n, n] -> [n]
    """Return for each output i how many positions back it reaches: i - (the earliest j it depends on) + 1."""
    reach = np.asarray(reach)
    if reach.dtype != bool or reach.ndim != 2 or reach.shape[0] != reach.shape[1] or not reach.any(axis=1).all():
        raise ValueError(f"reach must be a square bool array with an open entry in every row, got {reach.shape}")
    return np.arange(reach.shape[0]) - reach.argmax(axis=1) + 1


def cached_tokens(kinds, n, window, *, chunk=None):  # -> int
    """Return the most positions' K/V the layers keep at length n: min(n, window), n, min(n, chunk) per layer kind.

    A chunked layer's newest query reads back to its chunk's start, never further: at most chunk keys.
    """
    kinds = _kinds(kinds, chunk)
    n, window = positive_int("n", n), positive_int("window", window)
    kept = {"local": min(n, window), "global": n, "chunked": min(n, chunk) if "chunked" in kinds else None}
    return sum(kept[kind] for kind in kinds)


def pattern_cache_bytes(cfg, kinds, n_tokens, *, chunk=None, batch=1, bytes_per_value=2):  # -> int
    """Return the KV cache bytes of a stack whose layers are kinds: chapter 11's count, layer by layer.

    A local layer keeps the last cfg.window tokens, a global one every token, a chunked one at most chunk tokens
    (what its cache holds just before a chunk boundary); len(kinds) must be cfg.n_layers.
    """
    if not isinstance(cfg, Config):
        raise ValueError(f"cfg must be a primer.config.Config, got {type(cfg).__name__}")
    kinds = tuple(kinds)
    if len(kinds) != cfg.n_layers or any(kind not in KINDS for kind in kinds):
        raise ValueError(f"kinds must give one of {KINDS} for each of the {cfg.n_layers} layers, got {kinds!r}")
    if "local" in kinds and cfg.window is None:
        raise ValueError("cfg.window must be set for a stack with local layers")
    chunk = positive_int("chunk", chunk) if "chunked" in kinds else None
    spans = {"local": cfg.window, "global": None, "chunked": chunk}  # a chunked layer counts as a window of chunk
    one = {kind: replace(cfg, n_layers=1, window=span) for kind, span in spans.items()}
    return sum(kv_cache_bytes(one[kind], n_tokens, batch=batch, bytes_per_value=bytes_per_value) for kind in kinds)


def cache_shape(n_layers, n_kv_heads, head_dim, window):  # -> Config
    """Return a Config with only what a KV cache depends on: layers, KV heads, head dimension and window.

    d_model is n_kv_heads * head_dim, so that d_head is the head dimension; the cache does not depend on d_model.
    """
    n_kv_heads, head_dim = positive_int("n_kv_heads", n_kv_heads), positive_int("head_dim", head_dim)
    return Config(d_model=n_kv_heads * head_dim, n_heads=n_kv_heads, n_layers=n_layers, window=window, max_len=None)

"""How many bytes a KV cache takes: K and V, for every layer, KV head, head dimension and token.

bytes = 2 (K and V) x layers x KV heads x head dim x bytes per value x tokens x batch.
The shapes below are the published ones; a model with grouped-query attention keeps fewer KV
heads than query heads, and a sliding window caps how many tokens are kept.
"""

from dataclasses import dataclass

from primer._checks import nonneg_int, positive_int


def kv_cache_bytes(n_layers, n_kv_heads, head_dim, n_tokens, batch=1, bytes_per_value=2):  # -> int
    """Return the bytes of a KV cache: 2 x layers x KV heads x head dim x tokens x batch x bytes per value."""
    n_layers = positive_int("n_layers", n_layers)
    n_kv_heads = positive_int("n_kv_heads", n_kv_heads)
    head_dim = positive_int("head_dim", head_dim)
    n_tokens = nonneg_int("n_tokens", n_tokens)
    batch = positive_int("batch", batch)
    bytes_per_value = positive_int("bytes_per_value", bytes_per_value)
    return 2 * n_layers * n_kv_heads * head_dim * bytes_per_value * n_tokens * batch


@dataclass(frozen=True)
class Shape:
    """The published shape of a decoder, as far as its KV cache is concerned."""

    name: str
    n_layers: int
    d_model: int
    n_heads: int
    n_kv_heads: int
    max_context: int
    window: int = None   # sliding-window attention keeps at most this many tokens per layer

    def __post_init__(self):
        for name in ("n_layers", "d_model", "n_heads", "n_kv_heads", "max_context"):
            positive_int(name, getattr(self, name))
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model must be divisible by n_heads, got {self.d_model} and {self.n_heads}")
        if self.n_heads % self.n_kv_heads:
            raise ValueError(f"n_heads must be a multiple of n_kv_heads, got {self.n_heads} and {self.n_kv_heads}")
        if self.window is not None:
            positive_int("window", self.window)

    @property
    def head_dim(self):
        return self.d_model // self.n_heads


# Published shapes (from each model's paper or released config).
SHAPES = {s.name: s for s in (
    Shape("Llama-2-7B", n_layers=32, d_model=4096, n_heads=32, n_kv_heads=32, max_context=4096),
    Shape("Llama-2-13B", n_layers=40, d_model=5120, n_heads=40, n_kv_heads=40, max_context=4096),
    Shape("Llama-2-70B", n_layers=80, d_model=8192, n_heads=64, n_kv_heads=8, max_context=4096),
    Shape("Mistral-7B", n_layers=32, d_model=4096, n_heads=32, n_kv_heads=8, max_context=8192, window=4096),
    Shape("GPT-2", n_layers=12, d_model=768, n_heads=12, n_kv_heads=12, max_context=1024),
)}


def shape_bytes(shape, n_tokens, batch=1, bytes_per_value=2, window="model"):  # -> int
    """Return the KV-cache bytes of a published shape; window="model" uses the shape's own window, None none."""
    if not isinstance(shape, Shape):
        raise ValueError(f"shape must be a primer.memory.Shape, got {type(shape).__name__}")
    n_tokens = nonneg_int("n_tokens", n_tokens)
    window = shape.window if window == "model" else window
    if window is not None:
        n_tokens = min(n_tokens, positive_int("window", window))
    return kv_cache_bytes(shape.n_layers, shape.n_kv_heads, shape.head_dim, n_tokens, batch, bytes_per_value)


UNITS = ("B", "KiB", "MiB", "GiB", "TiB")


def format_bytes(n_bytes, digits=2):  # int -> str
    """Format a byte count with binary units: 524288 -> '512 KiB', 2147483648 -> '2 GiB'."""
    n = nonneg_int("n_bytes", n_bytes)
    value, unit = float(n), 0
    while value >= 1024 and unit < len(UNITS) - 1:
        value, unit = value / 1024, unit + 1
    text = f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return f"{text} {UNITS[unit]}"

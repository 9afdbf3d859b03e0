"""The shape of a Transformer: one Config for the tiny model, the published models, the KV cache and the counts.

A Config describes one stack of n_layers blocks. Which machine it becomes (encoder, decoder or
encoder-decoder, two stacks) is the mask choice, not part of the shape. The first block of fields
is all the tiny model of chapters 6-13 reads; the second block holds what a published model adds,
and only the parameter count (primer.counts) reads it.
"""

from dataclasses import dataclass

from primer._checks import int_at_least, positive_int

POSITIONS = (
    "sinusoidal",
    "rotary",
    "learned",
    "relative",
)  # only learned and relative ones hold weights.


@dataclass(frozen=True)
class Config:
    """The shape of a Transformer stack; the defaults are the tiny seeded model."""

    vocab_size: int = 32
    d_model: int = 16
    n_heads: int = 4
    d_ff: int = 32
    n_layers: int = 2  # blocks per stack
    max_len: int | None = 64  # longest sequence it reads; None: no fixed limit (no learned positions)
    n_kv_heads: int | None = None  # key/value heads; fewer than n_heads is grouped-query attention. None: n_heads
    window: int | None = None  # sliding window: the KV cache keeps at most this many tokens. None: all

    # What a published model adds (read only by the parameter count).
    positions: str = "sinusoidal"  # one of POSITIONS
    relative_buckets: int = 0  # relative-position biases per head and stack (T5)
    segment_types: int = 0  # learned segment embeddings (BERT's sentence A / B)
    dense_bias: bool = True  # every dense layer (attention, feed-forward) has a bias
    norm_bias: bool = True  # the norm has a shift as well as a scale (T5's and Llama's RMSNorm: scale only)
    gated_ff: bool = False  # a gated feed-forward with three d_model x d_ff matrices (Llama's SwiGLU)
    embedding_norm: bool = False  # a norm right after the embeddings (BERT)
    final_norm: bool = True  # a norm after the last block of each stack (pre-norm models)
    pooler: bool = False  # a dense layer + tanh on the first token (BERT)
    tied_output: bool = True  # the output layer reuses the token embedding matrix

    def __post_init__(self):
        for name in ("vocab_size", "d_model", "n_heads", "d_ff", "n_layers"):
            positive_int(name, getattr(self, name))
        if self.n_kv_heads is None:
            object.__setattr__(self, "n_kv_heads", self.n_heads)
        for name in ("max_len", "n_kv_heads", "window"):
            if getattr(self, name) is not None:
                positive_int(name, getattr(self, name))
        for name in ("relative_buckets", "segment_types"):
            int_at_least(name, getattr(self, name), 0)
        if self.d_model % self.n_heads:
            raise ValueError(
                f"d_model must be divisible by n_heads, got d_model={self.d_model}, n_heads={self.n_heads}"
            )
        if self.n_heads % self.n_kv_heads:
            raise ValueError(
                f"n_kv_heads must divide n_heads, got n_heads={self.n_heads}, n_kv_heads={self.n_kv_heads}"
            )
        if self.positions not in POSITIONS:
            raise ValueError(f"positions must be one of {POSITIONS}, got {self.positions!r}")
        if self.positions == "learned" and self.max_len is None:
            raise ValueError("max_len must be set when positions are 'learned': it is the number of learned positions")
        if (self.positions == "relative") != (self.relative_buckets > 0):
            raise ValueError(
                f"relative_buckets must be >= 1 exactly when positions is 'relative', "
                f"got positions={self.positions!r}, relative_buckets={self.relative_buckets}"
            )
        for name in ("dense_bias", "norm_bias", "gated_ff", "embedding_norm", "final_norm", "pooler", "tied_output"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be True or False, got {getattr(self, name)!r}")

    @property
    def d_head(self):
        """Width of one head's queries, keys and values: d_model / n_heads."""
        return self.d_model // self.n_heads

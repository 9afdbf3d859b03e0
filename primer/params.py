"""Parameter counts of a Transformer, computed from its published shape, part by part."""

from dataclasses import dataclass

from primer._checks import nonneg_int, positive_int

# The parts a count is split into, in the order tables print them.
PARTS = ("token_embeddings", "positions", "attention", "feed_forward", "biases", "norms", "pooler", "output_head")


@dataclass(frozen=True)
class Shape:
    """The published shape of a model: everything its parameter count depends on.

    encoder_layers and decoder_layers give the kind: encoder-only, decoder-only, or both (the
    decoder then has a cross-attention sub-layer in every block). max_positions counts learned
    absolute positions (0: none); relative_buckets counts T5-style relative position biases per
    head and stack (0: none).
    """

    name: str
    encoder_layers: int
    decoder_layers: int
    d_model: int
    n_heads: int
    d_ff: int
    vocab_size: int
    max_positions: int = 0
    segment_types: int = 0
    relative_buckets: int = 0
    dense_bias: bool = True        # every dense layer (attention, feed-forward) has a bias
    norm_bias: bool = True         # LayerNorm has a shift as well as a scale (T5's norm has a scale only)
    embedding_norm: bool = False   # a LayerNorm right after the embeddings (BERT)
    final_norm: bool = False       # a LayerNorm after the last block of each stack (T5)
    pooler: bool = False           # a dense layer + tanh on the first token (BERT)
    tied_output: bool = True       # the output layer reuses the token embedding matrix

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name must be a non-empty string, got {self.name!r}")
        for field in ("encoder_layers", "decoder_layers", "max_positions", "segment_types", "relative_buckets"):
            nonneg_int(field, getattr(self, field))
        for field in ("d_model", "n_heads", "d_ff", "vocab_size"):
            positive_int(field, getattr(self, field))
        if self.encoder_layers + self.decoder_layers == 0:
            raise ValueError("encoder_layers + decoder_layers must be >= 1: a model needs at least one block")
        if self.d_model % self.n_heads:
            raise ValueError(f"d_model must be divisible by n_heads, got d_model={self.d_model}, n_heads={self.n_heads}")
        if self.max_positions == 0 and self.relative_buckets == 0:
            raise ValueError("max_positions or relative_buckets must be >= 1: without either the model cannot tell positions apart")
        for field in ("dense_bias", "norm_bias", "embedding_norm", "final_norm", "pooler", "tied_output"):
            if not isinstance(getattr(self, field), bool):
                raise ValueError(f"{field} must be True or False, got {getattr(self, field)!r}")

    @property
    def kind(self):
        """Return 'encoder', 'decoder' or 'encoder-decoder'."""
        if self.encoder_layers and self.decoder_layers:
            return "encoder-decoder"
        return "encoder" if self.encoder_layers else "decoder"

    @property
    def stacks(self):
        """Return how many stacks of blocks the model has (1 or 2)."""
        return (self.encoder_layers > 0) + (self.decoder_layers > 0)


def _check_shape(shape):
    if not isinstance(shape, Shape):
        raise ValueError(f"shape must be a primer.params.Shape, got {type(shape).__name__}")
    return shape


def attention_sublayers(shape):  # Shape -> int
    """Return how many attention sub-layers the model has: one per block, two per decoder block of an encoder-decoder."""
    shape = _check_shape(shape)
    cross = shape.decoder_layers if shape.kind == "encoder-decoder" else 0
    return shape.encoder_layers + shape.decoder_layers + cross


def norm_count(shape):  # Shape -> int
    """Return how many normalisation layers the model has (one per sub-layer, plus embedding and final norms)."""
    shape = _check_shape(shape)
    per_block = attention_sublayers(shape) + shape.encoder_layers + shape.decoder_layers  # one per sub-layer
    return per_block + shape.embedding_norm + shape.final_norm * shape.stacks


def count_params(shape):  # Shape -> {part: int}
    """Return the parameter count of each part in PARTS; their sum is the model's total."""
    s = _check_shape(shape)
    d, blocks, attn = s.d_model, s.encoder_layers + s.decoder_layers, attention_sublayers(s)
    biases = 0
    if s.dense_bias:
        biases = attn * 4 * d + blocks * (s.d_ff + d)  # q, k, v, o biases; the two feed-forward biases
    return {
        "token_embeddings": s.vocab_size * d,
        "positions": s.max_positions * d + s.segment_types * d + s.relative_buckets * s.n_heads * s.stacks,
        "attention": attn * 4 * d * d,                 # W_q, W_k, W_v, W_o
        "feed_forward": blocks * 2 * d * s.d_ff,       # W_1 [d, d_ff], W_2 [d_ff, d]
        "biases": biases,
        "norms": norm_count(s) * d * (2 if s.norm_bias else 1),
        "pooler": (d * d + d) if s.pooler else 0,
        "output_head": 0 if s.tied_output else s.vocab_size * d,
    }


def total_params(shape):  # Shape -> int
    """Return the model's total parameter count."""
    return sum(count_params(shape).values())


def relative_difference(computed, published):  # int, int -> float
    """Return (computed - published) / published."""
    computed = nonneg_int("computed", computed)
    published = positive_int("published", published)
    return (computed - published) / published

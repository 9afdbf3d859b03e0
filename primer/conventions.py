"""How masks are spelled where readers paste our code, and what each library does with a row that has no open key.

The torch rows were measured with torch 2.13.0 and tests/test_conventions.py measures them again
against the installed torch; the Hugging Face rows are read from transformers' source
(src/transformers/masking_utils.py, commit 00c4411) and documentation, the FlashAttention rows from the docstrings of
flash_attn/flash_attn_interface.py (commit 0053002): read, not executed.
The second half translates primer's mask into each library's form and back (numpy only: the torch
forms are run in tests/test_mask_forms_torch.py; the FlashAttention and Hugging Face forms are
checked against their sources, named where they are built).
"""

from dataclasses import dataclass

import numpy as np

from primer._checks import int_at_least, nonneg_int, positive_int
from primer.masks import cu_seqlens

# what the argument's values mean: True (or 1) may read, True blocked, 1 a real token, an additive 0 / -inf, an
# additive 0 / the dtype's lowest value, document boundaries (cu_seqlens), a band (window_size), a BlockMask's tiles
TRUE_MEANS = ("may_read", "blocked", "one_attends", "additive", "additive_min", "cu_seqlens", "window_bounds", "tiles")
CAUSAL_ALIGNMENT = ("bottom_right", "top_left", "none")  # a causal mask with fewer queries than keys
# a query row with no open key (even: the weights spread evenly over the row's keys)
EMPTY_ROW = ("error", "zeros", "nan", "nan_unless_no_weights", "by_backend", "even")


@dataclass(frozen=True)
class Convention:
    """One place a mask goes: the call, the argument, and how it behaves."""

    call: str
    argument: str
    true_means: str  # one of TRUE_MEANS
    causal: str  # one of CAUSAL_ALIGNMENT: how its causal switch aligns n_q < n_k
    empty_row: str  # one of EMPTY_ROW
    checked: str  # "primer", "torch" (rerun by the tests) or "source" (read, not executed)

    def __post_init__(self):
        for name, allowed in (
            ("true_means", TRUE_MEANS),
            ("causal", CAUSAL_ALIGNMENT),
            ("empty_row", EMPTY_ROW),
            ("checked", ("primer", "torch", "source")),
        ):
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {getattr(self, name)!r}")


CONVENTIONS = (
    Convention("primer.attention", "mask", "may_read", "bottom_right", "error", "primer"),
    Convention(
        "torch.nn.functional.scaled_dot_product_attention", "attn_mask (bool)", "may_read", "top_left", "zeros", "torch"
    ),
    Convention(
        "torch.nn.functional.scaled_dot_product_attention",
        "attn_mask (float)",
        "additive",
        "top_left",
        "zeros",
        "torch",
    ),
    Convention("torch.nn.MultiheadAttention", "attn_mask (bool)", "blocked", "none", "nan_unless_no_weights", "torch"),
    Convention(
        "torch.nn.MultiheadAttention", "key_padding_mask (bool)", "blocked", "none", "nan_unless_no_weights", "torch"
    ),
    Convention("Hugging Face transformers", "attention_mask (0/1)", "one_attends", "none", "by_backend", "source"),
    Convention("Hugging Face transformers", "4-D float mask (eager)", "additive_min", "none", "even", "source"),
    Convention(
        "flash_attn.flash_attn_varlen_func",
        "cu_seqlens_q, cu_seqlens_k",
        "cu_seqlens",
        "bottom_right",
        "zeros",
        "source",
    ),
    Convention(
        "flash_attn.flash_attn_varlen_func",
        "window_size=(left, right)",
        "window_bounds",
        "bottom_right",
        "zeros",
        "source",
    ),
    Convention("torch.nn.attention.flex_attention.create_block_mask", "mask_mod", "may_read", "none", "zeros", "torch"),
    Convention(
        "torch.nn.attention.flex_attention.flex_attention", "block_mask (BlockMask)", "tiles", "none", "zeros", "torch"
    ),
)


# ---- the translator: primer's bool mask (True: query i may read key j) in each library's spelling, and back ----------
# Read from, for the forms not run here: huggingface/transformers src/transformers/masking_utils.py (commit 2ccc6ca):
# a 2-D attention_mask holds 1 for a real token and is read per key; sdpa_mask builds a 4-D bool mask, True = attend;
# eager_mask turns it into 0 and torch.finfo(dtype).min; find_packed_sequence_indices starts a new document wherever
# position_ids do not step by 1. Dao-AILab/flash-attention flash_attn/flash_attn_interface.py (commit 0053002), the
# docstring of flash_attn_varlen_func: causal aligns bottom-right, an all-zero row outputs zero, window_size=(left,
# right) keeps keys i + n_k - n_q - left .. i + n_k - n_q + right, -1 meaning no limit, and cu_seqlens are int32.


def _bool_mask(name, mask, min_ndim=2):  # -> bool array
    """Return mask as a bool array of at least min_ndim axes, or raise naming it."""
    mask = np.asarray(mask)
    if mask.dtype != bool or mask.ndim < min_ndim or mask.size == 0:
        raise ValueError(
            f"{name} must be a non-empty bool array of at least {min_ndim} dimension(s), "
            f"got dtype {mask.dtype}, shape {mask.shape}"
        )
    return mask


def to_sdpa_bool(mask):  # [..., n_q, n_k] -> same
    """Return the bool attn_mask of torch's scaled_dot_product_attention: the same array, True = may read."""
    return _bool_mask("mask", mask).copy()


def to_additive(mask, dtype=np.float64):  # [..., n_q, n_k] -> same, float
    """Return the additive float attn_mask (SDPA's float form): 0 where query i may read key j, -inf where not."""
    mask = _bool_mask("mask", mask)
    return np.where(mask, 0.0, -np.inf).astype(_float_dtype(dtype))


def from_additive(added):  # [..., n_q, n_k] float -> same, bool
    """Return the bool mask behind an additive mask: closed where -inf or the dtype's lowest value, open where 0.

    Any other value is a bias, not a mask, and raises.
    """
    added = np.asarray(added)
    if added.dtype.kind != "f" or added.ndim < 2 or added.size == 0:
        raise ValueError(f"added must be a non-empty float array of at least 2 dimensions, got {added.dtype}")
    closed = np.isneginf(added) | (added == np.finfo(added.dtype).min)
    if not np.all(closed | (added == 0)):
        raise ValueError("added must hold only 0 (open) and -inf or the dtype's lowest value (closed); it holds a bias")
    return ~closed


def to_mha_attn_mask(mask):  # [n_q, n_k] or [batch * heads, n_q, n_k] -> same
    """Return nn.MultiheadAttention's bool attn_mask, where True means blocked: the negation of primer's."""
    return ~_bool_mask("mask", mask)


def from_mha_attn_mask(attn_mask):  # -> [..., n_q, n_k]
    """Return primer's mask from nn.MultiheadAttention's bool attn_mask (True: blocked)."""
    return ~_bool_mask("attn_mask", attn_mask)


def to_key_padding_mask(real):  # [batch, n] -> [batch, n]
    """Return nn.MultiheadAttention's key_padding_mask from primer's real-token mask: True where the key is padding."""
    return ~_bool_mask("real", real)


def from_key_padding_mask(key_padding_mask):  # [batch, n] -> [batch, n]
    """Return primer's real-token mask (True: a real token) from a key_padding_mask (True: padding)."""
    return ~_bool_mask("key_padding_mask", key_padding_mask)


def to_hf_attention_mask(real):  # [batch, n] bool -> [batch, n] int
    """Return Hugging Face's 2-D attention_mask: 1 for a real token, 0 for padding (it describes keys, not pairs)."""
    return _bool_mask("real", real).astype(np.int64)


def from_hf_attention_mask(attention_mask):  # [batch, n] 0/1 -> [batch, n] bool
    """Return primer's real-token mask from Hugging Face's 2-D attention_mask, which must hold only 0 and 1."""
    a = np.asarray(attention_mask)
    if a.ndim != 2 or a.size == 0 or a.dtype.kind not in "biu" or not np.isin(a, (0, 1)).all():
        raise ValueError(f"attention_mask must be a non-empty [batch, n] array of 0 and 1, got {a.dtype}, {a.shape}")
    return a.astype(bool)


def hf_padded_mask(attention_mask, base):  # [batch, n_k] 0/1, [n_q, n_k] -> [batch, n_q, n_k]
    """Return the bool mask Hugging Face builds from a 2-D attention_mask: base AND the key is a real token.

    Nothing keeps a padded query's row open (primer's batch_mask does): under left padding and a causal
    base those rows are empty.
    """
    real = from_hf_attention_mask(attention_mask)
    base = _bool_mask("base", base)
    if base.ndim != 2 or base.shape[1] != real.shape[1]:
        raise ValueError(f"base must be [n_q, n_k] with n_k = {real.shape[1]}, got shape {base.shape}")
    return base[None, :, :] & real[:, None, :]


def to_hf_4d(mask, dtype=np.float32):  # [batch, n_q, n_k] bool -> [batch, 1, n_q, n_k] float
    """Return Hugging Face's 4-D additive mask of eager attention: 0 where open, the dtype's lowest value where not."""
    mask = _bool_mask("mask", mask, min_ndim=3)
    if mask.ndim != 3:
        raise ValueError(f"mask must be [batch, n_q, n_k], got shape {mask.shape}")
    dtype = _float_dtype(dtype)
    return np.where(mask, 0.0, np.finfo(dtype).min).astype(dtype)[:, None]


def from_hf_4d(added):  # [batch, 1, n_q, n_k] -> [batch, n_q, n_k]
    """Return primer's masks from Hugging Face's 4-D additive mask."""
    added = np.asarray(added)
    if added.ndim != 4 or added.shape[1] != 1:
        raise ValueError(f"added must have shape [batch, 1, n_q, n_k], got {added.shape}")
    return from_additive(added)[:, 0]


def _float_dtype(dtype):  # -> np.dtype
    """Return dtype as a numpy floating-point dtype, or raise."""
    try:
        dtype = np.dtype(dtype)
    except TypeError:
        raise ValueError(f"dtype must be a floating-point type, got {dtype!r}") from None
    if dtype.kind != "f":
        raise ValueError(f"dtype must be a floating-point type, got {dtype}")
    return dtype


def packed_ids_from_positions(position_ids):  # [n] -> [n]
    """Return the document of each token as Hugging Face infers it: a new one wherever position ids do not step by 1."""
    p = np.asarray(position_ids)
    if p.ndim != 1 or p.size == 0 or p.dtype.kind not in "iu":
        raise ValueError(f"position_ids must be a non-empty 1-D array of integers, got {p.dtype}, shape {p.shape}")
    return np.cumsum(np.diff(p, prepend=p[0] - 1) != 1).astype(np.int64)


def weights_from_labels(labels, ignore_index=-100):  # [...] int -> ([...] int, [...] float)
    """Return (targets, loss weights) from labels that mark "no loss here" with ignore_index (torch's default: -100).

    A label equal to ignore_index gets weight 0 (and a stand-in target 0): it changes what is learned,
    never what a query reads, which is the attention mask's job.
    """
    labels = np.asarray(labels)
    if labels.ndim < 1 or labels.size == 0 or labels.dtype.kind not in "iu":
        raise ValueError(f"labels must be a non-empty array of integer ids, got {labels.dtype}, shape {labels.shape}")
    ignore_index = int_at_least("ignore_index", ignore_index, -(2**62))
    ignored = labels == ignore_index
    if ignored.all():
        raise ValueError("labels must keep at least one position that is not ignore_index, or the mean loss is 0/0")
    if (labels[~ignored] < 0).any():
        raise ValueError(f"labels must be ids >= 0 or ignore_index={ignore_index}, got {labels[~ignored].min()}")
    return np.where(ignored, 0, labels).astype(np.int64), (~ignored).astype(float)


def to_flash_varlen(doc_ids):  # [n] -> ([n_docs + 1] int32, int)
    """Return FlashAttention's varlen arguments for a packed row: (cu_seqlens as int32, max_seqlen)."""
    cu = cu_seqlens(doc_ids)
    return cu.astype(np.int32), int(np.diff(cu).max())


def to_flash_window(window):  # int -> (int, int)
    """Return FlashAttention's window_size=(left, right) for primer's causal window (which counts the query's key)."""
    return positive_int("window", window) - 1, 0


def flash_mask(n_q, n_k, *, causal=False, window_size=(-1, -1)):  # -> [n_q, n_k]
    """Return the mask FlashAttention's docstring describes: bottom-right causal, keys i + n_k - n_q - left .. + right.

    A row may come out empty (n_q > n_k under causal): FlashAttention outputs zeros there; primer.attention refuses it.
    """
    n_q, n_k = positive_int("n_q", n_q), positive_int("n_k", n_k)
    if not isinstance(causal, bool):
        raise ValueError(f"causal must be True or False, got {causal!r}")
    if not (isinstance(window_size, tuple) and len(window_size) == 2):
        raise ValueError(f"window_size must be a pair (left, right), got {window_size!r}")
    left, right = (int_at_least("window_size", w, -1) for w in window_size)
    i, j = np.indices((n_q, n_k))
    diag = i + n_k - n_q  # the key aligned with query i (bottom-right)
    open_ = np.ones((n_q, n_k), dtype=bool)
    if left >= 0:
        open_ &= j >= diag - left
    if right >= 0:
        open_ &= j <= diag + right
    if causal:
        open_ &= j <= diag
    return open_


def from_flash_window(window_size):  # (left, right) -> int
    """Return primer's window for a causal FlashAttention window_size (left, 0); left -1 has no window, and raises."""
    if not (isinstance(window_size, tuple) and len(window_size) == 2):
        raise ValueError(f"window_size must be a pair (left, right), got {window_size!r}")
    left = int_at_least("window_size", window_size[0], 0)
    if window_size[1] not in (0, -1) or isinstance(window_size[1], bool):
        raise ValueError(f"window_size must have right = 0 (or -1 under causal) for a causal window, got {window_size}")
    return left + 1


# ---- FlexAttention: a mask_mod is a function (b, h, q_idx, kv_idx) -> bool; these use only operators that numpy
# index grids and torch tensors share, so torch's flex_attention can call them (tables are passed in its array type)


def causal_mod(b, h, q_idx, kv_idx):  # -> bool
    """Return True where query q_idx may read key kv_idx under the causal mask (n_q == n_k)."""
    return kv_idx <= q_idx


def window_mod(window, *, sinks=0):  # -> mask_mod
    """Return the mask_mod of window_mask(n, window, sinks=sinks)."""
    window, sinks = positive_int("window", window), nonneg_int("sinks", sinks)

    def mod(b, h, q_idx, kv_idx):
        return (kv_idx <= q_idx) & ((q_idx - kv_idx < window) | (kv_idx < sinks))

    return mod


def chunked_mod(chunk):  # -> mask_mod
    """Return the mask_mod of chunked_mask(n, chunk)."""
    chunk = positive_int("chunk", chunk)

    def mod(b, h, q_idx, kv_idx):
        return (kv_idx <= q_idx) & (q_idx // chunk == kv_idx // chunk)

    return mod


def prefix_lm_mod(prefix):  # -> mask_mod
    """Return the mask_mod of prefix_lm_mask(n, prefix)."""
    prefix = nonneg_int("prefix", prefix)

    def mod(b, h, q_idx, kv_idx):
        return (kv_idx < prefix) | (kv_idx <= q_idx)

    return mod


def document_mod(doc_ids, *, causal=True):  # -> mask_mod
    """Return the mask_mod of document_mask(doc_ids); doc_ids is indexed, so pass it as the library's own array."""
    if not isinstance(causal, bool):
        raise ValueError(f"causal must be True or False, got {causal!r}")

    def mod(b, h, q_idx, kv_idx):
        same = doc_ids[q_idx] == doc_ids[kv_idx]
        return same & (kv_idx <= q_idx) if causal else same

    return mod


def table_mod(mask):  # -> mask_mod
    """Return a mask_mod that looks a [n_q, n_k] bool table up (a tree_mask, say); pass it as the library's array."""

    def mod(b, h, q_idx, kv_idx):
        return mask[q_idx, kv_idx]

    return mod


def mask_from_mod(mask_mod, n_q, n_k):  # -> [n_q, n_k]
    """Return primer's mask from a mask_mod, called once on numpy index grids (batch 0, head 0)."""
    if not callable(mask_mod):
        raise ValueError(f"mask_mod must be callable (b, h, q_idx, kv_idx) -> bool, got {mask_mod!r}")
    q_idx, kv_idx = np.indices((positive_int("n_q", n_q), positive_int("n_k", n_k)))
    mask = np.broadcast_to(np.asarray(mask_mod(0, 0, q_idx, kv_idx)), (n_q, n_k))
    if mask.dtype != bool:
        raise ValueError(f"mask_mod must return bools, got dtype {mask.dtype}")
    return mask.copy()


BLOCK_KINDS = ("empty", "partial", "full")  # a tile of a BlockMask: nothing open, some open, all open


def block_kinds(mask, block=128):  # [n_q, n_k] -> [ceil(n_q / block), ceil(n_k / block)] of 0, 1, 2
    """Return each block x block tile's kind as an index into BLOCK_KINDS, as a BlockMask sorts them.

    FlexAttention skips an empty tile, applies the mask_mod in a partial one and skips it in a full one.
    Positions past the mask's edge count as closed (create_block_mask pads the mask with False to whole
    blocks; torch 2.13.0), so a ragged edge tile is never full.
    """
    mask = _bool_mask("mask", mask)
    if mask.ndim != 2:
        raise ValueError(f"mask must be [n_q, n_k], got shape {mask.shape}")
    block = positive_int("block", block)
    rows, cols = -(-mask.shape[0] // block), -(-mask.shape[1] // block)
    padded = np.zeros((rows * block, cols * block), dtype=bool)
    padded[: mask.shape[0], : mask.shape[1]] = mask
    tiles = padded.reshape(rows, block, cols, block)  # [row tile, row, column tile, column]
    return np.where(tiles.all(axis=(1, 3)), 2, tiles.any(axis=(1, 3)).astype(np.int64))

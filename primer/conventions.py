"""How masks are spelled where readers paste our code, and what each library does with a row that has no open key.

The torch rows were measured with torch 2.13.0 and tests/test_conventions.py measures them again
against the installed torch; the Hugging Face row is read from transformers' source
(src/transformers/masking_utils.py, commit 00c4411) and documentation, not executed.
"""

from dataclasses import dataclass

TRUE_MEANS = ("may_read", "blocked", "one_attends")  # what True (or 1) in the mask means
CAUSAL_ALIGNMENT = ("bottom_right", "top_left", "none")  # a causal mask with fewer queries than keys
EMPTY_ROW = ("error", "zeros", "nan", "nan_unless_no_weights", "by_backend")  # a query row with no open key


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
    Convention("torch.nn.MultiheadAttention", "attn_mask (bool)", "blocked", "none", "nan_unless_no_weights", "torch"),
    Convention(
        "torch.nn.MultiheadAttention", "key_padding_mask (bool)", "blocked", "none", "nan_unless_no_weights", "torch"
    ),
    Convention("Hugging Face transformers", "attention_mask (0/1)", "one_attends", "none", "by_backend", "source"),
)

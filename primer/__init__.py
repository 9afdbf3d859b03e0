"""primer: the numpy code behind the attention-mask primer. mask[i, j] True: query i may read key j."""

from primer.attention import attention
from primer.masks import additive_mask, causal_mask, full_mask, window_mask
from primer.softmax import masked_softmax, softmax

__all__ = ["additive_mask", "attention", "causal_mask", "full_mask", "masked_softmax", "softmax", "window_mask"]

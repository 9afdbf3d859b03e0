import numpy as np

from primer import attention, causal_mask, full_mask
from primer.figures import mask as figures
from primer.figures.tables import fmt_change
from primer.inputs.mask import BATCH_LENGTHS, BATCH_N, PADDING_CASES
from primer.masks import batch_mask, empty_rows, key_padding_mask

x = np.random.default_rng(0).normal(size=(len(BATCH_LENGTHS), BATCH_N, 8))  # padded batch; pad vectors are noise too
rows = []
for causal, side in PADDING_CASES:
    real = key_padding_mask(BATCH_LENGTHS, BATCH_N, side=side)
    masks = batch_mask(BATCH_LENGTHS, BATCH_N, causal=causal, side=side)
    plain = batch_mask(BATCH_LENGTHS, BATCH_N, causal=causal, side=side, padded_queries="and")
    out, _ = attention(x, x, x, masks)  # [batch, n, d]
    diff = 0.0
    for b, length in enumerate(BATCH_LENGTHS):
        alone = x[b][real[b]]  # the sentence without its padding
        base = causal_mask(length) if causal else full_mask(length)
        diff = max(diff, np.abs(out[b][real[b]] - attention(alone, alone, alone, base)[0]).max())
    rows.append((causal, side, int((~real).sum()), int(empty_rows(plain).sum()), fmt_change(diff)))
print(figures.padding_table(rows))

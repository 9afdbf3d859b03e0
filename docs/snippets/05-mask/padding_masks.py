from primer.figures import mask as figures
from primer.figures import to_html
from primer.inputs.mask import BATCH, BATCH_LENGTHS, BATCH_N, PADDING_CASES
from primer.masks import batch_mask, empty_rows, key_padding_mask

cases = []
for causal, side in PADDING_CASES:
    real = key_padding_mask(BATCH_LENGTHS, BATCH_N, side=side)  # [batch, n]: True = real token
    plain = batch_mask(BATCH_LENGTHS, BATCH_N, causal=causal, side=side, padded_queries="and")
    masks = batch_mask(BATCH_LENGTHS, BATCH_N, causal=causal, side=side)  # primer: a padded query reads itself
    cases.append((causal, side, masks, real, empty_rows(plain)))
fig = figures.padding_masks(BATCH, cases)
print(to_html(fig, div_id="fig-padding-masks"))

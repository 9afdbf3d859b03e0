from primer.figures import real_model as figures
from primer.inputs.real_model import PAD, PAD_TOKEN, PADDED
from primer.pretrained import measure

result = measure.left_padding(PADDED, PAD, PAD_TOKEN)  # batch_mask([n], PAD + n, causal=True, side="left")
print(figures.padding_table(result, measure.GAP_BOUNDS))

from primer.figures import real_model as figures
from primer.inputs.real_model import PASSAGE
from primer.pretrained import measure

share = measure.sink_shares(measure.attention_maps(PASSAGE)[1])  # [30 layers, 9 heads]
print(figures.share_table(share))

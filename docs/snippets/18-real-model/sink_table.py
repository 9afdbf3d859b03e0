from primer.experiments import real_model
from primer.figures import real_model as figures
from primer.inputs.real_model import PASSAGE

share = real_model.sink_shares(real_model.attention_maps(PASSAGE)[1])  # [30 layers, 9 heads]
print(figures.share_table(share))

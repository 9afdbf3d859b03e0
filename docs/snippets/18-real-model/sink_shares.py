from primer.figures import real_model as figures
from primer.figures.html import to_html
from primer.inputs.real_model import PASSAGE, SENTENCE
from primer.pretrained import measure

shares = {  # [30 layers, 9 heads]: the mean weight of queries 1 .. n - 1 on key 0
    "sentence": measure.sink_shares(measure.attention_maps(SENTENCE)[1]),
    "passage": measure.sink_shares(measure.attention_maps(PASSAGE)[1]),
}
print(to_html(figures.sink_shares(shares), div_id="fig-sink-shares"))

from primer.figures import real_model as figures
from primer.figures.html import to_html
from primer.inputs.real_model import SENTENCE
from primer.pretrained import measure

tokens, attn = measure.attention_maps(SENTENCE)  # attn: [30 layers, 9 heads, n, n], causal
print(to_html(figures.attention_maps(tokens, attn), div_id="fig-attention-maps"))

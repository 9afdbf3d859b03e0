from primer.architectures import MODELS, stack_masks, summary
from primer.figures import choosing, to_html

models = []
for name in MODELS:                                     # BERT-base, GPT-1, T5-base
    m = summary(name)                                   # parameters counted from the published shape
    n_tgt = 4 if m["shape"].kind == "encoder-decoder" else 6
    m["masks"] = stack_masks(m["shape"].kind, n_src=6, n_tgt=n_tgt)
    models.append(m)
print(to_html(choosing.model_picker(models), div_id="fig-model-picker"))

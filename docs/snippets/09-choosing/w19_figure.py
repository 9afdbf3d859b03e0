from primer.architectures import MODELS, stack_masks, summary
from primer.figures import choosing, to_html

models = []
for name in MODELS:                                     # BERT-base, GPT-1, T5-base
    m = summary(name)                                   # parameters counted from the published shape
    n_src, n_tgt = 6, (4 if m["shape"].kind == "encoder-decoder" else 6)
    m["masks"] = stack_masks(m["shape"].kind, n_src, n_tgt)
    src, tgt = [str(j) for j in range(n_src)], [str(i) for i in range(n_tgt)]
    m["labels"] = [(src, src), (tgt, tgt), (src, tgt)]
    models.append(m)
print(to_html(choosing.model_picker(models), div_id="fig-w19"))

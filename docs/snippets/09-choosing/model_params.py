from primer.figures import choosing as figures
from primer.figures import to_html
from primer.inputs.choosing import ONE_OF_EACH
from primer.machines import stack_masks
from primer.published import summary

models = []
for name in ONE_OF_EACH:  # BERT-base, GPT-1, T5-base
    m = summary(name)  # parameters counted from the published shape
    n_tgt = 4 if m["machine"] == "encoder-decoder" else 6
    m["masks"] = stack_masks(m["machine"], n_src=6, n_tgt=n_tgt)
    models.append(m)
print(to_html(figures.model_params(models), div_id="fig-model-params"))

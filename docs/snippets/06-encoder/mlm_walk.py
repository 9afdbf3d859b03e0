from primer import mlm
from primer.figures import encoder, to_html

model = mlm.ContextCounter()        # a count-based model over mlm.CORPUS, not BERT
steps = mlm.steps(mlm.SENTENCE, mlm.MASKED_POSITION, model)
fig = encoder.mlm_walk(list(mlm.SENTENCE), mlm.MASKED_POSITION, steps, model.words)
print(to_html(fig, div_id="fig-mlm-walk"))

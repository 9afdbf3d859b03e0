from primer import mlm
from primer.figures import encoder as figures
from primer.figures import to_html

model = mlm.ContextCounter()  # a count-based model over mlm.CORPUS, not BERT
steps = mlm.steps(mlm.SENTENCE, mlm.MASKED_POSITION, model)
fig = figures.mlm_walk(list(mlm.SENTENCE), mlm.MASKED_POSITION, steps, model.words)
print(to_html(fig, div_id="fig-mlm-walk"))

from primer.decoding import sampling_probs, temperature_softmax
from primer.figures import sampling_pipeline as figures
from primer.inputs.sampling_pipeline import FILTER_TEMPERATURE, FILTERS, NEXT_LOGITS

before = temperature_softmax(NEXT_LOGITS, FILTER_TEMPERATURE)
names = [None if k is None and p is None else f"top-k = {k}" if k else f"top-p = {p}" for k, p in FILTERS]
after = [sampling_probs(NEXT_LOGITS, FILTER_TEMPERATURE, top_k=k, top_p=p) for k, p in FILTERS]
print(figures.filter_table(names, after, [before[q > 0].sum() for q in after]))

from primer.decoding import frequencies, sampling_probs, temperature_softmax
from primer.figures import sampling_pipeline as figures
from primer.figures import to_html
from primer.inputs.sampling_pipeline import DRAW_SEED, FILTER_TEMPERATURE, FILTERS, N_DRAWS, NEXT_LOGITS

before = temperature_softmax(NEXT_LOGITS, FILTER_TEMPERATURE)
names = [None if k is None and p is None else f"top-k = {k}" if k else f"top-p = {p}" for k, p in FILTERS]
after = [
    sampling_probs(NEXT_LOGITS, FILTER_TEMPERATURE, top_k=k, top_p=p) for k, p in FILTERS
]  # what sample draws from
masses = [before[q > 0].sum() for q in after]  # the kept candidates' probability before the filter
freqs = [frequencies(NEXT_LOGITS, FILTER_TEMPERATURE, N_DRAWS, DRAW_SEED, top_k=k, top_p=p) for k, p in FILTERS]
fig = figures.top_k_top_p(names, before, after, masses, freqs, n_draws=N_DRAWS, active=names.index("top-p = 0.9"))
print(to_html(fig, div_id="fig-top-k-top-p"))

from primer import broken_masks
from primer.decoding import sampling_probs
from primer.figures import sampling_pipeline as figures
from primer.kv_cache import decode_cached
from primer.pages.decoder import CORPUS, GRAMMAR, MODEL, TRAINING
from primer.pages.sampling_pipeline import TRAINED_FILTERS, TRAINED_PROMPT, TRAINED_TEMPERATURES
from primer.vocab import to_ids

# Chapter 7's decoder, trained under the causal mask: its logits for the word after the prompt
data, cfg, runs = broken_masks.experiment(GRAMMAR, model=MODEL, corpus_args=CORPUS, **TRAINING)
z = decode_cached(to_ids(TRAINED_PROMPT.split(), data.vocab), runs["causal"].params, cfg)[-1]
columns = [f"T = {t}" for t in TRAINED_TEMPERATURES] + [f"top-k = {k}, T = 1" if k else f"top-p = {p}, T = 1"
                                                        for k, p in TRAINED_FILTERS]
probs = [sampling_probs(z, t) for t in TRAINED_TEMPERATURES] + [sampling_probs(z, 1.0, top_k=k, top_p=p)
                                                                for k, p in TRAINED_FILTERS]
print(figures.trained_next_word_table(data.vocab, columns, probs))

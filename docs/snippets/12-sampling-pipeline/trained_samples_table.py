from primer import broken_masks, corpus
from primer.figures import sampling_pipeline as figures
from primer.pages.decoder import CORPUS, GRAMMAR, MODEL, SCORE_N, TRAINING
from primer.pages.sampling_pipeline import TRAINED_N_NEW, TRAINED_PROMPT, TRAINED_SAMPLES, TRAINED_SEEDS

data, cfg, runs = broken_masks.experiment(GRAMMAR, model=MODEL, corpus_args=CORPUS, **TRAINING)
prompt = TRAINED_PROMPT.split()
rows = []
for t, k, p in TRAINED_SAMPLES:
    name = f"T = {t}" + (f", top-k = {k}" if k else "") + (f", top-p = {p}" if p else "")
    samples = [broken_masks.write(runs["causal"].params, cfg, data.vocab, prompt, TRAINED_N_NEW, seed=seed,
                                  temperature=t, top_k=k, top_p=p) for seed in TRAINED_SEEDS]
    rows.append((name, samples[0], corpus.ngram_share(samples, data.words, SCORE_N, skip=len(prompt))))
print(figures.trained_samples_table(rows, len(TRAINED_SEEDS)))

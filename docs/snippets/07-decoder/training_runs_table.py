from primer import broken_masks
from primer.figures import decoder as figures
from primer.pages.decoder import CORPUS, GRAMMAR, MODEL, N_NEW, PROMPTS, SAMPLE_SEED, SCORE_N, TRAINING

data, cfg, runs = broken_masks.experiment(GRAMMAR, model=MODEL, corpus_args=CORPUS, **TRAINING)
losses, scores = {}, {}
for name, run in runs.items():
    written = broken_masks.texts(run.params, cfg, data.vocab, PROMPTS, N_NEW, SAMPLE_SEED)  # greedy and sampled
    losses[name] = (run.train_loss, run.heldout_loss)
    scores[name] = broken_masks.score(written, data.words, PROMPTS, SCORE_N)  # trigrams found in the corpus
setup = MODEL | TRAINING | {"vocab_size": cfg.vocab_size}
print(figures.training_runs_table(losses, scores, setup))

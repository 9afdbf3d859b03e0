from primer import broken_masks
from primer.figures import decoder as figures
from primer.pages.decoder import CORPUS, GRAMMAR, MODEL, N_NEW, PROMPTS, SAMPLE_SEED, TRAINING

# Every model continues the same prompts with the causal mask, as generation runs: greedy, then sampled
data, cfg, runs = broken_masks.experiment(GRAMMAR, model=MODEL, corpus_args=CORPUS, **TRAINING)
written = {
    name: broken_masks.texts(run.params, cfg, data.vocab, PROMPTS, N_NEW, SAMPLE_SEED) for name, run in runs.items()
}
print(figures.generations_table(PROMPTS, written))

from primer import writing
from primer.experiments.trained_decoder import trained_decoder
from primer.figures import sampling_pipeline as figures
from primer.inputs.decoder import EXPERIMENT, SCORE_N
from primer.inputs.sampling_pipeline import TRAINED_N_NEW, TRAINED_NEXT, TRAINED_PROMPT, TRAINED_SAMPLES, TRAINED_SEEDS

# Chapter 7's decoder, trained under the causal mask; settings are (T, top_k, top_p)
data, cfg, decoder = trained_decoder(**EXPERIMENT)
model, prompt = (decoder.params, cfg, data.vocab), TRAINED_PROMPT.split()
probs = writing.next_word_probs(*model, prompt, TRAINED_NEXT)
samples = writing.sample_scores(*model, prompt, TRAINED_SAMPLES, TRAINED_SEEDS, TRAINED_N_NEW, data.words, SCORE_N)
print(figures.trained_sampling_table(data.vocab, TRAINED_NEXT, probs, TRAINED_SAMPLES, samples, len(TRAINED_SEEDS)))

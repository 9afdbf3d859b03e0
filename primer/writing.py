"""What a trained decoder writes: continuations of a prompt (greedy or sampled), their n-gram score, next words.

Every function generates with the causal mask, as generation always runs, whatever mask the
model was trained under.
"""

import numpy as np

from primer import corpus
from primer._checks import nonneg_int, positive_int
from primer.decoding import generate, sampling_probs
from primer.kv_cache import decode_cached
from primer.vocab import to_ids


def write(
    params, cfg, vocab, prompt, n_new, *, seed=None, temperature=1.0, top_k=None, top_p=None
):  # -> [len(prompt) + n_new] words
    """Return the prompt's words and n_new more, under the causal mask: greedy if seed is None, else sampled."""
    ids = to_ids(prompt, vocab, "prompt")
    if seed is None:
        out = generate(ids, params, cfg, n_new)
    else:
        rng = np.random.default_rng(nonneg_int("seed", seed))
        out = generate(
            ids, params, cfg, n_new, greedy=False, temperature=temperature, top_k=top_k, top_p=top_p, rng=rng
        )
    return [vocab[i] for i in out]


def texts(params, cfg, vocab, prompts, n_new, seed, n_samples=1):  # -> {prompt: [greedy words, sampled words, ...]}
    """Return, for each prompt k, the greedy continuation and n_samples sampled at T = 1 (seed + n_samples k + i)."""
    n_samples = positive_int("n_samples", n_samples)
    return {
        prompt: [write(params, cfg, vocab, prompt.split(), n_new)]
        + [write(params, cfg, vocab, prompt.split(), n_new, seed=seed + n_samples * k + i) for i in range(n_samples)]
        for k, prompt in enumerate(prompts)
    }


def score(written, reference, prompts, n=3):  # -> (found, total)
    """Return how many n-grams of the generated words (prompts excluded) occur in the reference, and how many in all.

    reference: a text (list of words) or the set of n-grams allowed (primer.experiments.grammar.ngrams).
    """
    found = total = 0
    for prompt in prompts:
        f, t = corpus.ngram_share(written[prompt], reference, n, skip=len(prompt.split()))
        found, total = found + f, total + t
    return found, total


def next_word_probs(params, cfg, vocab, prompt, settings):  # [settings] of (T, top_k, top_p) -> [settings, vocab]
    """Return the model's next-word distribution after the prompt under each sampling setting."""
    z = decode_cached(to_ids(prompt, vocab, "prompt"), params, cfg)[-1]
    return np.array([sampling_probs(z, t, top_k=k, top_p=p) for t, k, p in settings])


def sample_scores(
    params, cfg, vocab, prompt, settings, seeds, n_new, corpus_words, n=3
):  # -> [(words, (found, total))]
    """Return, per sampling setting, the first seed's sample and how many n-grams of all samples occur in the corpus."""
    out = []
    for t, k, p in settings:
        samples = [write(params, cfg, vocab, prompt, n_new, seed=s, temperature=t, top_k=k, top_p=p) for s in seeds]
        out.append((samples[0], corpus.ngram_share(samples, corpus_words, n, skip=len(prompt))))
    return out

"""Train one tiny decoder under the causal mask and under broken masks that never raise, then judge each honestly.

The same corpus, the same initial weights, the same batches; only the mask differs. Each model is
then measured the way generation sees text (causal mask, held-out rows) and made to write text
from the same prompts. Used in chapter 7 (a training curve that is too good), and its causal model
in chapters 10 and 12.
"""

import functools
from dataclasses import dataclass

import numpy as np

from primer import corpus
from primer._checks import nonneg_int
from primer.backprop import MaskedFill
from primer.config import Config
from primer.decoding import generate, sampling_probs
from primer.kv_cache import decode_cached
from primer.masks import additive_mask, causal_mask, full_mask
from primer.training import loss, train
from primer.transformer import init_stack
from primer.vocab import to_ids

RUNS = ("causal", "no_mask", "added_0", "triu_2", "masked_fill_0")  # the honest run first


def training_masks(n):  # -> {run: a mask form of primer.backprop, [n, n]}
    """Return the mask each run trains under: the causal one and four that let the future in without raising."""
    causal = causal_mask(n)
    return {
        "causal": causal,
        "no_mask": full_mask(n),
        "added_0": additive_mask(causal, 0.0),  # chapter 5's bug: 0 where -inf was meant
        "triu_2": ~np.triu(np.ones((n, n), bool), k=2),  # closes j >= i + 2: the next token stays open
        "masked_fill_0": MaskedFill(causal, 0.0),
    }  # closed scores set to 0, not -inf: still read


@dataclass(frozen=True, eq=False)
class Data:
    """The corpus and its rows: words, vocabulary, training and held-out rows of next-token exercises."""

    words: list  # the training text, every sentence in order
    heldout_words: list  # the held-out text: drawn by another seed
    n_sentences: int
    n_heldout_sentences: int
    vocab: tuple
    tokens: np.ndarray  # [rows, n] ids
    targets: np.ndarray  # [rows, n] ids: the next token of each
    heldout_tokens: np.ndarray
    heldout_targets: np.ndarray


@dataclass(frozen=True, eq=False)
class Run:
    """One model trained under one mask, and what the honest measurements say of it."""

    name: str
    params: dict
    history: np.ndarray  # [steps] the training loss of each step, under the run's own mask
    train_loss: float  # on every training row, under the run's own mask: what its training reports
    heldout_loss: float  # on the held-out rows, under the causal mask: what generation meets


def make_data(
    grammar, *, n_sentences, n_heldout_sentences, seed, heldout_seed, n, n_rows, n_heldout_rows, boundary="."
):
    """Return the corpus drawn from the grammar and its training and held-out rows. Used in chapter 7."""
    train_s = corpus.sentences(grammar, n_sentences, seed)
    held_s = corpus.sentences(grammar, n_heldout_sentences, heldout_seed)
    words = [boundary] + [w for s in train_s for w in s]  # the text starts at a boundary, like each row
    held = [boundary] + [w for s in held_s for w in s]
    vocab = corpus.vocabulary(words + held)
    tokens, targets = corpus.rows(words, vocab, n, n_rows, seed, boundary=boundary)
    h_tokens, h_targets = corpus.rows(held, vocab, n, n_heldout_rows, heldout_seed, boundary=boundary)
    return Data(words, held, n_sentences, n_heldout_sentences, vocab, tokens, targets, h_tokens, h_targets)


def _frozen(grammar):
    return tuple((symbol, tuple(tuple(alt) for alt in alts)) for symbol, alts in grammar.items())


@functools.lru_cache(maxsize=4)
def _experiment(grammar, model, corpus_args, init_seed, steps, lr, batch_size, batch_seed, runs):
    data = make_data(dict(grammar), **dict(corpus_args))
    n = data.tokens.shape[1]
    cfg = Config(vocab_size=len(data.vocab), **dict(model))
    masks, start = training_masks(n), init_stack(init_seed, cfg)
    out = {}
    for name in runs:
        params, history = train(
            start,
            cfg,
            data.tokens,
            data.targets,
            masks[name],
            steps=steps,
            lr=lr,
            seed=batch_seed,
            batch_size=batch_size,
        )
        out[name] = Run(
            name,
            params,
            history,
            loss(params, cfg, data.tokens, data.targets, masks[name]),
            loss(params, cfg, data.heldout_tokens, data.heldout_targets, causal_mask(n)),
        )
    return data, cfg, out


def experiment(grammar, *, model, corpus_args, init_seed, steps, lr, batch_size, batch_seed=0, runs=RUNS):
    """Return (data, cfg, {run: Run}): one model trained from the same weights on the same batches under each run's mask.

    model holds the Config's shape (its vocab_size comes from the corpus); corpus_args are
    make_data's. The result is computed once per process and shared: do not change it in place.
    Used in chapters 7, 10 and 12.
    """
    unknown = [r for r in runs if r not in RUNS]
    if unknown or not runs:
        raise ValueError(f"runs must be a non-empty tuple of names from {RUNS}, got {runs!r}")
    corpus.check_grammar(grammar, "S")
    return _experiment(
        _frozen(grammar),
        tuple(sorted(model.items())),
        tuple(sorted(corpus_args.items())),
        init_seed,
        steps,
        lr,
        batch_size,
        batch_seed,
        tuple(runs),
    )


def write(
    params, cfg, vocab, prompt, n_new, *, seed=None, temperature=1.0, top_k=None, top_p=None
):  # -> [len(prompt) + n_new] words
    """Return the prompt's words and n_new more, generated with the causal mask: greedy if seed is None, else sampled.

    Used in chapters 7, 10 and 12.
    """
    ids = to_ids(prompt, vocab, "prompt")
    if seed is None:
        out = generate(ids, params, cfg, n_new)
    else:
        rng = np.random.default_rng(nonneg_int("seed", seed))
        out = generate(
            ids, params, cfg, n_new, greedy=False, temperature=temperature, top_k=top_k, top_p=top_p, rng=rng
        )
    return [vocab[i] for i in out]


def texts(params, cfg, vocab, prompts, n_new, seed):  # -> {prompt: (greedy words, sampled words)}
    """Return, for each prompt, the greedy continuation and one sampled at temperature 1 (seeded). Used in chapter 7."""
    return {
        prompt: (
            write(params, cfg, vocab, prompt.split(), n_new),
            write(params, cfg, vocab, prompt.split(), n_new, seed=seed + k),
        )
        for k, prompt in enumerate(prompts)
    }


def score(written, corpus_words, prompts, n=3):  # -> (found, total)
    """Return how many n-grams of the generated words (greedy and sampled, prompts excluded) occur in the corpus. Used in chapter 7."""
    found = total = 0
    for prompt in prompts:
        f, t = corpus.ngram_share(written[prompt], corpus_words, n, skip=len(prompt.split()))
        found, total = found + f, total + t
    return found, total


def next_word_probs(params, cfg, vocab, prompt, settings):  # [settings] of (T, top_k, top_p) -> [settings, vocab]
    """Return the model's next-word distribution after the prompt under each sampling setting. Used in chapter 12."""
    z = decode_cached(to_ids(prompt, vocab, "prompt"), params, cfg)[-1]
    return np.array([sampling_probs(z, t, top_k=k, top_p=p) for t, k, p in settings])


def sample_scores(
    params, cfg, vocab, prompt, settings, seeds, n_new, corpus_words, n=3
):  # -> [(words, (found, total))]
    """Return, per sampling setting, the first seed's sample and how many n-grams of all seeds' samples occur in the corpus.

    Used in chapter 12.
    """
    out = []
    for t, k, p in settings:
        samples = [write(params, cfg, vocab, prompt, n_new, seed=s, temperature=t, top_k=k, top_p=p) for s in seeds]
        out.append((samples[0], corpus.ngram_share(samples, corpus_words, n, skip=len(prompt))))
    return out

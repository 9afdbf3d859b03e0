"""Train one tiny decoder under the causal mask and under broken masks that never raise, then judge each honestly.

The same corpus, the same initial weights, the same batches; only the mask differs. Each model is
measured three ways: on the training rows under its own mask (what training reports), on held-out
rows under its own mask (an ordinary validation loss) and on held-out rows under the causal mask
(the way generation reads text), the last also every few steps along the way.
"""

import functools
from dataclasses import dataclass

import numpy as np

from primer import grammar as grammars
from primer import language_model, writing
from primer.backprop import MaskedFill
from primer.config import Config
from primer.masks import additive_mask, causal_mask, full_mask
from primer.training import Rows, decoder_forward, loss, target_probs, train
from primer.transformer import init_stack

CLOSED = -1e9  # how the inverted run's code closes a score: a large finite number, so a row with no open key sums to 1

MASKS = {  # run -> the mask it trains under, as a function of the row length n ([n, n], a mask form of primer.backprop)
    "causal": causal_mask,  # the honest run, first
    "no_mask": full_mask,
    "added_0": lambda n: additive_mask(causal_mask(n), 0.0),  # chapter 5's bug: 0 where -inf was meant
    "triu_2": lambda n: ~np.triu(np.ones((n, n), bool), k=2),  # closes j >= i + 2: the next token stays open
    "masked_fill_0": lambda n: MaskedFill(causal_mask(n), 0.0),  # closed scores set to 0, not -inf: still read
    "inverted": lambda n: np.where(causal_mask(n), CLOSED, 0.0),  # "may read" handed to code that closes where True
}
RUNS = tuple(MASKS)


def training_masks(n):  # -> {run: a mask form of primer.backprop, [n, n]}
    """Return the mask each run trains under: the causal one and five that let the future in without raising."""
    return {run: mask(n) for run, mask in MASKS.items()}


@dataclass(frozen=True, eq=False)
class Run:
    """One model trained under one mask, and what the measurements say of it."""

    name: str
    params: dict
    history: np.ndarray  # [steps] the training loss of each step, under the run's own mask
    curve_steps: np.ndarray  # [k] 0, every, 2 every, ..., steps
    curve: np.ndarray  # [k] held-out loss under the causal mask at those steps: the honest curve
    train_loss: float  # on every training row, under the run's own mask: what its training reports
    val_loss: float  # on the held-out rows, under the run's own mask: an ordinary validation loss
    heldout_loss: float  # on the held-out rows, under the causal mask: what generation meets
    p_own: float  # mean probability of the true next word where the grammar leaves a choice, own mask
    p_causal: float  # the same under the causal mask
    start_logit_std: float  # spread of the initial model's logits on the held-out rows (the same for every run)


def _frozen(grammar):
    return tuple((symbol, tuple(tuple(alt) for alt in alts)) for symbol, alts in grammar.items())


@functools.lru_cache(maxsize=8)
def _experiment(grammar, model, corpus_args, training, seed, runs):
    data = language_model.make_data(dict(grammar), **dict(corpus_args), seed=seed)
    n, training = data.tokens.shape[1], dict(training)
    cfg = Config(vocab_size=len(data.vocab), **dict(model))
    *_, init_seed, batch_seed = language_model.seeds(seed)
    start, task, causal = init_stack(init_seed, cfg), [Rows(data.tokens, data.targets)], causal_mask(n)
    held = (data.heldout_tokens, data.heldout_targets)
    start_logit_std = float(decoder_forward(start, data.heldout_tokens, causal[None, None], cfg.n_heads)[0].std())
    out = {}
    for name in runs:
        machine = train(start, cfg, task, self_mask=MASKS[name], seed=batch_seed, **training)
        params, own = machine.weights, MASKS[name](n)
        honest = [loss(p, cfg, *held, causal) for p in (start, *machine.kept.values())]  # every `every` steps
        out[name] = Run(
            name,
            params,
            machine.losses,
            np.arange(len(honest)) * training["every"],
            np.array(honest),
            loss(params, cfg, data.tokens, data.targets, own),
            loss(params, cfg, *held, own),
            honest[-1] if training["steps"] % training["every"] == 0 else loss(params, cfg, *held, causal),
            float(target_probs(params, cfg, *held, own)[data.choice].mean()),
            float(target_probs(params, cfg, *held, causal)[data.choice].mean()),
            start_logit_std,
        )
    return data, cfg, out


def experiment(grammar, *, model, corpus_args, training, seed, runs=RUNS):
    """Return (data, cfg, {run: Run}): one model trained from the same weights and batches under each run's mask.

    model holds the Config's shape (its vocab_size comes from the corpus); corpus_args are
    language_model.make_data's; training holds steps, lr, batch_size and every (how often the honest
    loss is measured). The seed fixes everything else. The result is computed once per process and
    shared: do not change it in place.
    """
    unknown = [r for r in runs if r not in RUNS]
    if unknown or not runs:
        raise ValueError(f"runs must be a non-empty tuple of names from {RUNS}, got {runs!r}")
    keys = {"steps", "lr", "batch_size", "every"}
    if set(training) != keys:
        raise ValueError(f"training must have exactly the keys {sorted(keys)}, got {sorted(training)}")
    every = int(training["every"])
    if every < 1 or training["every"] != every:
        raise ValueError(f"training['every'] must be an integer >= 1, got {training['every']!r}")
    grammars.check_grammar(grammar, "S")
    return _experiment(
        _frozen(grammar),
        tuple(sorted(model.items())),
        tuple(sorted(corpus_args.items())),
        tuple(sorted((training | {"every": every}).items())),
        seed,
        tuple(runs),
    )


def over_seeds(setup, seeds):  # -> [(data, cfg, {run: Run})] one per seed
    """Return the experiment of setup (experiment's keyword arguments) run once for each seed."""
    if not len(seeds):
        raise ValueError("seeds must hold at least one seed")
    return [experiment(**(dict(setup) | {"seed": s})) for s in seeds]


def summary(setup, seeds, *, prompts, n_new, n_samples, sample_seed, score_n):  # -> ({run: {measure: [seeds]}}, refs)
    """Return every run's measurements over the seeds, and the references each seed's data gives.

    Per run: "train", "val", "honest" (losses), "p_own", "p_causal" (the true next word's mean probability where the
    grammar leaves a choice), "start" (held-out loss at step 0), "score" ((found, total) trigrams of its greedy and
    sampled continuations that the grammar can make). refs: "floor", "chance" and, per seed, "train_floor" (the training
    text's own floor), "grammar" (the grammar's own held-out loss), "grammar_p" and "start_std" (the initial logits'
    standard deviation); "vocab_size".
    """
    setup = dict(setup)
    frozen = tuple((k, _frozen(v) if k == "grammar" else _freeze(v)) for k, v in sorted(setup.items()))
    return _summary(frozen, tuple(seeds), tuple(prompts), n_new, n_samples, sample_seed, score_n)


def _freeze(value):
    return tuple(sorted(value.items())) if isinstance(value, dict) else value


@functools.lru_cache(maxsize=2)
def _summary(frozen, seeds, prompts, n_new, n_samples, sample_seed, score_n):
    setup = {
        k: (dict(v) if k != "grammar" else {s: alts for s, alts in v}) if isinstance(v, tuple) else v for k, v in frozen
    }
    allowed = grammars.ngrams(setup["grammar"], score_n)
    measured, refs = {}, {"train_floor": [], "grammar": [], "grammar_p": [], "start_std": []}
    for data, cfg, runs in over_seeds(setup, seeds):
        refs |= {"floor": data.floor, "chance": data.chance, "vocab_size": len(data.vocab)}
        refs["train_floor"].append(data.train_floor)
        refs["grammar"].append(data.grammar_heldout_loss)
        refs["grammar_p"].append(data.grammar_p_choice)
        refs["start_std"].append(runs[next(iter(runs))].start_logit_std)
        for name, run in runs.items():
            written = writing.texts(run.params, cfg, data.vocab, prompts, n_new, sample_seed, n_samples)
            m = measured.setdefault(name, {k: [] for k in ("train", "val", "honest", "p_own", "p_causal", "start")})
            for key, value in (
                ("train", run.train_loss),
                ("val", run.val_loss),
                ("honest", run.heldout_loss),
                ("p_own", run.p_own),
                ("p_causal", run.p_causal),
                ("start", run.curve[0]),
            ):
                m[key].append(float(value))
            m.setdefault("score", []).append(writing.score(written, allowed, prompts, score_n))
    return measured, refs

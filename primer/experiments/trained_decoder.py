"""Train chapter 7's tiny decoder under a mask, then measure it honestly; under the causal mask it is the good model.

Chapter 7 trains it under the causal mask and under five broken ones (primer.experiments.broken_masks); chapters 10
and 12 take home the causal run, `trained_decoder(...)`. Every run of a setup starts from the same weights and draws
the same batches, so only the mask differs. Each is measured three ways: on the training rows under its own mask
(what training reports), on held-out rows under its own mask (an ordinary validation loss) and on held-out rows
under the causal mask (the way generation reads text), the last also every few steps along the way.
"""

import functools
from dataclasses import dataclass

import numpy as np

from primer.backprop_stack import decoder_forward
from primer.config import Config
from primer.experiments import grammar as grammars
from primer.experiments import language_model
from primer.masks import causal_mask
from primer.training import Rows, loss, target_probs, train
from primer.transformer import init_stack

TRAINING_KEYS = ("batch_size", "every", "lr", "steps")  # every: how often the honest loss is measured


@dataclass(frozen=True, eq=False)
class DecoderRun:
    """One decoder trained under one mask, and what the measurements say of it."""

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


@functools.lru_cache(maxsize=8)
def _start(grammar, model, corpus_args, seed):  # -> (data, cfg, initial params, batch seed, initial logits' std)
    data = language_model.make_data(dict(grammar), **dict(corpus_args), seed=seed)
    cfg = Config(vocab_size=len(data.vocab), **dict(model))
    *_, init_seed, batch_seed = language_model.seeds(seed)
    start, causal = init_stack(init_seed, cfg), causal_mask(data.tokens.shape[1])
    start_logit_std = float(decoder_forward(start, data.heldout_tokens, causal[None, None], cfg.n_heads)[0].std())
    return data, cfg, start, batch_seed, start_logit_std


@functools.lru_cache(maxsize=64)
def decoder_run(grammar, model, corpus_args, training, seed, name, self_mask):  # -> (data, cfg, DecoderRun)
    """Return the decoder trained under self_mask (a function of the row length) and measured, named name.

    The arguments are trained_decoder's, frozen (grammar.frozen, sorted item tuples) so the run is computed once
    per process and shared: do not change it in place.
    """
    data, cfg, start, batch_seed, start_logit_std = _start(grammar, model, corpus_args, seed)
    n, training = data.tokens.shape[1], dict(training)
    task, causal = [Rows(data.tokens, data.targets)], causal_mask(n)
    held = (data.heldout_tokens, data.heldout_targets)
    machine = train(start, cfg, task, self_mask=self_mask, seed=batch_seed, **training)
    params, own = machine.params, self_mask(n)
    honest = [loss(p, cfg, *held, causal) for p in (start, *machine.kept.values())]  # every `every` steps
    run = DecoderRun(
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
    return data, cfg, run


def frozen_setup(grammar, *, model, corpus_args, training, seed):  # -> the arguments of decoder_run before name
    """Return a setup's arguments checked and frozen for decoder_run, or raise ValueError."""
    if set(training) != set(TRAINING_KEYS):
        raise ValueError(f"training must have exactly the keys {list(TRAINING_KEYS)}, got {sorted(training)}")
    every = int(training["every"])
    if every < 1 or training["every"] != every:
        raise ValueError(f"training['every'] must be an integer >= 1, got {training['every']!r}")
    grammars.validate_grammar(grammar, "S")
    return (
        grammars.frozen(grammar),
        tuple(sorted(model.items())),
        tuple(sorted(corpus_args.items())),
        tuple(sorted((training | {"every": every}).items())),
        seed,
    )


def trained_decoder(grammar, *, model, corpus_args, training, seed):  # -> (data, cfg, DecoderRun)
    """Return chapter 7's decoder trained under the causal mask on text drawn from the grammar, and its scores.

    model holds the Config's shape (its vocab_size comes from the corpus); corpus_args are
    language_model.make_data's; training holds steps, lr, batch_size and every (how often the honest
    loss is measured). The seed fixes everything else. Computed once per process (the same run as
    chapter 7's causal one) and shared: do not change it in place.
    """
    setup = frozen_setup(grammar, model=model, corpus_args=corpus_args, training=training, seed=seed)
    return decoder_run(*setup, "causal", causal_mask)


def over_seeds(setup, seeds):  # -> [(data, cfg, DecoderRun)] one per seed
    """Return trained_decoder(**setup) once for each seed."""
    if not len(seeds):
        raise ValueError("seeds must hold at least one seed")
    return [trained_decoder(**(dict(setup) | {"seed": s})) for s in seeds]

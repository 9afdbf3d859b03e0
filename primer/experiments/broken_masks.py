"""Chapter 7's decoder trained under the causal mask and under five broken masks that never raise, side by side.

Each run is primer.experiments.trained_decoder's: the same corpus, the same initial weights, the same batches;
only the mask differs, and each is judged the same honest ways.
"""

import functools

import numpy as np

from primer import writing
from primer.backprop import MaskedFill
from primer.experiments import grammar as grammars
from primer.experiments.trained_decoder import decoder_run, frozen_setup
from primer.masks import additive_mask, causal_mask, full_mask

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


def mask_runs(grammar, *, model, corpus_args, training, seed, runs=RUNS):  # -> (data, cfg, {run: DecoderRun})
    """Return (data, cfg, {run: DecoderRun}): one decoder trained from the same weights and batches per run's mask.

    The arguments are trained_decoder.trained_decoder's, and runs names the masks (MASKS). Each run is computed once
    per process and shared (the causal one is the trained decoder itself): do not change it in place.
    """
    unknown = [r for r in runs if r not in RUNS]
    if unknown or not runs:
        raise ValueError(f"runs must be a non-empty tuple of names from {RUNS}, got {runs!r}")
    setup = frozen_setup(grammar, model=model, corpus_args=corpus_args, training=training, seed=seed)
    out = {name: decoder_run(*setup, name, MASKS[name]) for name in runs}
    data, cfg, _ = out[runs[0]]
    return data, cfg, {name: run for name, (_, _, run) in out.items()}


def over_seeds(setup, seeds):  # -> [(data, cfg, {run: DecoderRun})] one per seed
    """Return mask_runs of setup (mask_runs's keyword arguments) once for each seed."""
    if not len(seeds):
        raise ValueError("seeds must hold at least one seed")
    return [mask_runs(**(dict(setup) | {"seed": s})) for s in seeds]


def measures(setup, seeds, *, prompts, n_new, n_samples, sample_seed, score_n):  # -> ({run: {measure: [seeds]}}, refs)
    """Return every run's measurements over the seeds, and the references each seed's data gives.

    Per run: "train", "val", "honest" (losses), "p_own", "p_causal" (the true next word's mean probability where the
    grammar leaves a choice), "start" (held-out loss at step 0), "score" ((found, total) trigrams of its greedy and
    sampled continuations that the grammar can make). refs: "floor", "chance" and, per seed, "train_floor" (the training
    text's own floor), "grammar" (the grammar's own held-out loss), "grammar_p" and "start_std" (the initial logits'
    standard deviation); "vocab_size".
    """
    setup = dict(setup)
    frozen = tuple((k, grammars.frozen(v) if k == "grammar" else _freeze(v)) for k, v in sorted(setup.items()))
    return _measures(frozen, tuple(seeds), tuple(prompts), n_new, n_samples, sample_seed, score_n)


def _freeze(value):
    return tuple(sorted(value.items())) if isinstance(value, dict) else value


@functools.lru_cache(maxsize=2)
def _measures(frozen, seeds, prompts, n_new, n_samples, sample_seed, score_n):
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

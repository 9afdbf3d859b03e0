"""experiments.trained_encoder: chapter 6's encoder, trained with masked-LM, judged on held-out words over every seed.

Margins: the measured values (5 seeds) are in the comments; each bound leaves room on the worst seed.
"""

import numpy as np
import pytest

from primer import mlm
from primer.experiments import trained_encoder
from primer.inputs.encoder import EXPERIMENT, SEEDS
from primer.masks import full_mask


def runs():
    return trained_encoder.over_seeds(EXPERIMENT, SEEDS)


@pytest.mark.slow  # trains chapter 6's encoder over every seed
def test_every_seed_holds_out_sentences_the_training_text_never_has():
    for run in runs():
        data = run.data
        assert data.overlap == 0
        assert not set(data.train_part) & set(data.heldout_part)
        held = {tuple(s) for s in " ".join(data.heldout_words).replace(" .", " .|").split("|") if s.strip()}
        assert all(s.split()[-1] == "." for s in map(" ".join, held))


@pytest.mark.slow  # trains chapter 6's encoder over every seed
def test_both_sides_beat_the_same_weights_under_the_causal_mask_on_every_seed():
    for run in runs():
        both, left = run.accuracy("encoder", "both"), run.accuracy("encoder", "left")
        assert both > left + 0.15  # measured (200 steps): 0.51-0.60 against 0.22-0.30, gap >= 0.21
        assert left < run.accuracy("grammar", "left")  # under a mask it never trained with, it is worse than left-only


@pytest.mark.slow  # trains chapter 6's encoder over every seed
def test_where_the_right_side_decides_the_encoder_finds_the_word_and_no_left_only_guesser_can():
    for run in runs():
        d = run.decided
        assert d.sum() >= 50  # measured: 96 of 576 hidden words, the verbs
        assert run.accuracy("grammar", "both", d) == 1.0  # decided: the two sides fix the word
        assert run.accuracy("grammar", "left", d) < 0.3  # measured: 0.25 (one of four verbs)
        assert run.accuracy("encoder", "both", d) > 0.7  # measured (200 steps): 0.875-1.0
        assert run.accuracy("encoder", "left", d) < 0.3  # measured (200 steps): 0.18-0.22


@pytest.mark.slow  # trains chapter 6's encoder over every seed
def test_over_every_hidden_word_the_encoder_beats_the_best_left_only_guess_and_stays_below_the_best_guess():
    for run in runs():
        both = run.accuracy("encoder", "both")
        assert (
            run.accuracy("grammar", "left") < both < run.accuracy("grammar", "both")
        )  # measured (200 steps): gaps >= 0.03 and 0.02


@pytest.mark.slow  # trains chapter 6's encoder over every seed
def test_every_top_guess_is_far_from_a_tie():
    """Across BLAS kernels the weights differ by rounding (~1e-12); a top guess 1e-6 ahead cannot change."""
    for run in runs():
        cloze, _, positions = mlm.cloze(run.data.heldout_tokens, run.vocab)
        for mask in (full_mask(cloze.shape[1]), ~np.triu(np.ones((cloze.shape[1],) * 2, bool), k=1)):
            p = np.sort(mlm.hidden_probs(run.params, run.cfg, cloze, positions, mask), axis=-1)
            assert (p[:, -1] - p[:, -2]).min() > 1e-6


def test_the_experiments_arguments_are_checked():
    with pytest.raises(ValueError, match="masking"):
        trained_encoder.trained_encoder(**EXPERIMENT | {"masking": {"rate": 0.15}})

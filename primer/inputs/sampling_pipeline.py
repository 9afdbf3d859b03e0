"""Inputs of chapter 12 (sampling-pipeline): five illustrative logits, temperatures, the toy pipeline's text, seeds."""

import numpy as np

# Five candidate next words after "the cat sat on the ..." and illustrative logits for them
# (typed in, not produced by a trained model). The words themselves live in the figure labels.
NEXT_LOGITS = np.array([2.0, 1.0, 0.5, -0.5, -1.5])  # used in chapter 12
SLIDER_TEMPERATURES = tuple(round(0.1 * i, 1) for i in range(1, 21))  # the slider's steps; used in chapter 12
TABLE_TEMPERATURES = (0.5, 1.0, 2.0)  # the table's rows; used in chapter 12
N_DRAWS = 10_000  # seeded draws the empirical frequencies are counted over; used in chapter 12
DRAW_SEED = 0  # used in chapter 12

# The seven-stage pipeline runs on primer.sampling_pipeline's toy character vocabulary and model.
SEED = 0  # the shared stack's weights (with cross-attention sub-layers, unused unless read); chapters 12, 13
ENCODER_SEED = 1  # the separate encoder whose output the encoder-decoder reads; used in chapter 12
PROMPT = "the cat"  # used in chapter 12
SOURCE = "le chat"  # the encoder's input in the encoder-decoder setting; used in chapter 12
N_NEW = 8  # characters the loop appends; used in chapter 12
TEMPERATURE = 1.0  # used in chapter 12
SAMPLE_SEED = 0  # used in chapter 12

# top-k and top-p on the same five logits at T = 1: the buttons of the filter figure and the rows of its table
FILTER_TEMPERATURE = 1.0  # used in chapter 12
FILTERS = (
    (None, None),
    (1, None),
    (2, None),
    (3, None),
    (None, 0.5),
    (None, 0.8),
    (None, 0.9),
    (None, 0.95),
)  # (top_k, top_p); chapter 12

# The trained decoder of chapter 7 (primer.experiments.broken_masks, causal run): its next-word distribution, samples.
TRAINED_PROMPT = ". the cat"  # the grammar allows four verbs next; used in chapter 12
TRAINED_NEXT = (
    (0.5, None, None),
    (1.0, None, None),
    (2.0, None, None),
    (1.0, 2, None),
    (1.0, None, 0.9),
)  # (T, top_k, top_p) columns; chapter 12
TRAINED_SAMPLES = (
    (0.5, None, None),
    (1.0, None, None),
    (2.0, None, None),
    (2.0, 2, None),
    (2.0, None, 0.9),
)  # (T, top_k, top_p); chapter 12
TRAINED_N_NEW = 12  # words each sample writes; used in chapter 12
TRAINED_SEEDS = tuple(range(20))  # one sample per seed and setting; the first is shown; chapter 12
SAME_DRAWS_TEMPERATURES = (0.5, 1.0)  # two settings of TRAINED_SAMPLES whose samples share their uniform draws

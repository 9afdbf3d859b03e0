"""Inputs of chapter 14 (mask bugs in the wild): the random rows every reproduction runs on, and each bug's knobs."""

# The rows the symptoms are measured on: the mask checks' own defaults (n rows of d numbers, the last N_PAD padded).
SEED, N, D, N_PAD = 0, 8, 4, 3

# How far every score has drifted, for the two fill bugs. Softmax ignores a shift common to a row, so a model may
# drift anywhere; GPT-2's -1e4 stops closing keys once the open scores fall below it, and FP16's minimum plus any
# score below -16 rounds to -inf.
SHIFT_MASKED_BIAS = -15000.0
SHIFT_FP16 = -30.0

# The sliding window of the off-by-one bug (keys a query reads, itself included).
WINDOW = 2

# The page's order: one section per bug.
ORDER = (
    "masked_bias",
    "fp16_min",
    "transposed",
    "not_inverted",
    "not_in_place",
    "query_axis",
    "nan_rows",
    "top_left",
    "window",
)

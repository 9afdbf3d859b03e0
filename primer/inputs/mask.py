"""Inputs of chapter 5 (mask): the raw scores the mask examples start from."""

import numpy as np

# 3x3 raw scores (rows: queries, columns: keys); used in chapter 5.
SCORES_3X3 = np.array([[1.2, 3.4, 0.8], [2.1, 0.5, 1.9], [0.4, 1.7, 2.2]])

# Four raw scores one apart; every query row sees the same scores, so the last key always scores highest.
FOUR_SCORES = np.tile(np.arange(4.0), (4, 1))

# The query row of the leak example, and the future key it must not read; used in chapter 5.
LEAK_ROW, LEAK_KEY = 2, 3

# A batch of three sentences of different lengths, padded to the longest; used in chapter 5's padding section.
BATCH = (("the", "cat", "sat"), ("a", "bird", "sang", "at", "dawn"), ("hi", "there"))
BATCH_LENGTHS = tuple(len(s) for s in BATCH)
BATCH_N = max(BATCH_LENGTHS)

# The four ways the padding section combines a base mask with padding: (causal, side); chapter 5.
PADDING_CASES = ((False, "right"), (True, "right"), (False, "left"), (True, "left"))

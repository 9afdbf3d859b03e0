"""Named inputs of the worked examples, shared by the pages and the tests that pin their results."""

import numpy as np

# Chapter 5's 3x3 raw scores (rows: queries, columns: keys).
SCORES_3X3 = np.array([[1.2, 3.4, 0.8],
                       [2.1, 0.5, 1.9],
                       [0.4, 1.7, 2.2]])

# Four raw scores one apart; every query row sees the same scores, so the last key always scores highest.
FOUR_SCORES = np.tile(np.arange(4.0), (4, 1))

# The query row of the leak example, and the future key it must not read.
LEAK_ROW, LEAK_KEY = 2, 3
